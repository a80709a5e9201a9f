/**
 * Reading `--limits FILE` from disk: the Node-only half of `limits.ts` (the zone object and the
 * Worker on workerd use `limits.ts` alone, which touches no file system).
 */
import { readFileSync } from 'node:fs';
import { ZonewallError, fileErrorReason } from '../errors.js';
import { readPlanLimitsText, type PlanLimitsOverride } from './limits.js';

/**
 * Reads a `--limits FILE`: a JSON object `{ "<tier>": { "firewall_rules"?, "log"?, "matches"?, "custom_rules"?, "custom_response"? } }`.
 * Its text is read as the Worker reads `ZONEWALL_LIMITS` (`readPlanLimitsText`).
 */
export function loadPlanLimitsFile(file: string): PlanLimitsOverride {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ZonewallError('ERR_USAGE', `cannot read the limits file ${file === '' ? '""' : file}: ${fileErrorReason(err)}`, { cause: err });
  }
  return readPlanLimitsText(text, file);
}
