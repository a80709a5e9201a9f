/**
 * Reading `--limits FILE` from disk: the Node-only half of `limits.ts` (the zone object and the
 * Worker on workerd use `limits.ts` alone, which touches no file system).
 */
import { readFileSync } from 'node:fs';
import { ZonewallError, fileErrorReason } from '../errors.js';
import { validatePlanLimits, type PlanLimitsOverride } from './limits.js';
import { duplicateKeyMessage, firstDuplicateKey, jsonErrorPlace } from '../json-text.js';

/**
 * Reads a `--limits FILE`: a JSON object `{ "<tier>": { "firewall_rules"?, "log"?, "matches"?, "custom_rules"?, "custom_response"? } }`.
 * A key written twice in one object is refused at its `FILE:LINE:COLUMN`.
 */
export function loadPlanLimitsFile(file: string): PlanLimitsOverride {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ZonewallError('ERR_USAGE', `cannot read the limits file ${file === '' ? '""' : file}: ${fileErrorReason(err)}`, { cause: err });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // The parser's message quotes the text, newlines included: say where in one line.
    throw new ZonewallError('ERR_USAGE', `the limits file ${file} is not valid JSON${jsonErrorPlace(text, err)}`, { cause: err });
  }
  // JSON keeps the last of a repeated key: `"free": {...}` written twice would lose the first, unsaid.
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) throw new ZonewallError('ERR_USAGE', duplicateKeyMessage(file, text, duplicate));
  validatePlanLimits(parsed, file);
  return parsed as PlanLimitsOverride;
}
