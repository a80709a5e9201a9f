/**
 * `GET /filters/validate-expr?expression=...` and `POST /filters/validate-expr` `{expression}`:
 * the real service's expression check, not zone-scoped. Failures have the real shape: no code,
 * `messages: null`, and the engine's `Filter parsing error (L:C)` text.
 */
import { FilterPaths } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import { BodyReader, Problems, requireObject } from '../body-reader.js';
import { ok } from '../envelope.js';
import { checkExpression } from '../expression.js';
import type { EngineRoute } from '../engine-route.js';
import type { ApiRequest, ApiResponse } from '../types.js';
import { FilterLimits } from './constants.js';

/** Routes of expression validation. */
export const validateExprRoutes: EngineRoute[] = [
  { method: 'GET', pattern: FilterPaths.validateExpr, handler: (_e, req) => Promise.resolve(validate(fromQuery(req))) },
  { method: 'POST', pattern: FilterPaths.validateExpr, handler: (_e, req) => Promise.resolve(validate(fromBody(req))) },
];

function fromQuery(req: ApiRequest): string {
  const expression = req.query?.get('expression');
  if (expression === null || expression === undefined) throw ApiError.of('invalidQuery', 'query parameter expression is required', { pointer: '?expression' });
  return expression;
}

function fromBody(req: ApiRequest): string {
  const problems = new Problems();
  const r = new BodyReader(requireObject(req.body, '{"expression": ...}'), '', problems);
  r.allowOnly(['expression']);
  const expression = r.string('expression', { required: true, maxLength: FilterLimits.expression });
  problems.throwIfAny();
  return expression!;
}

function validate(expression: string): ApiResponse {
  const checked = checkExpression(expression, '/expression');
  if ('canonical' in checked) return ok(null);
  return { status: 400, body: { result: null, success: false, errors: [{ message: checked.message }], messages: null } };
}
