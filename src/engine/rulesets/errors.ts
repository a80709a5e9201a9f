/**
 * Envelope messages of the Rulesets API's refusals (codes in `constants.ts`), and the one place
 * that turns collected problems into a thrown `ApiError`.
 */
import { ApiError, entryMessage } from '../api-errors.js';
import type { Problems } from '../body-reader.js';
import type { ApiMessage } from '../types.js';
import { RulesetErrors, type RulesetErrorKind } from './constants.js';

/** One message of a Rulesets API error kind, pointing into the body. */
export function rulesetMessage(kind: RulesetErrorKind, message: string, pointer?: string): ApiMessage {
  return entryMessage(RulesetErrors[kind], message, { pointer });
}

/** Records a Rulesets API problem beside the field-type problems. */
export function addProblem(problems: Problems, kind: RulesetErrorKind, message: string, pointer: string): void {
  problems.list.push(rulesetMessage(kind, message, pointer));
}

/** Throws one Rulesets API error with its usual HTTP status. */
export function rulesetError(kind: RulesetErrorKind, message: string, pointer?: string): ApiError {
  return ApiError.from(RulesetErrors[kind], message, { pointer });
}
