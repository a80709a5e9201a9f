/**
 * Checks of `previous_waf` the JSON Schema cannot state: only anomaly packages take sensitivity and
 * action mode, and one entry per package (an alias and its id name the same package).
 */
import { entriesOf, isRecord, type Checks } from '../view.js';
import { TraditionalPackageIds, resolvePackage } from './catalog.js';

/** Checks the packages of `previous_waf`. */
export function checkPreviousWaf(checks: Checks, data: Record<string, unknown>): void {
  const waf = data.previous_waf;
  if (!isRecord(waf)) return;
  const seen = new Map<string, string>();
  const { keys, values } = entriesOf(waf.packages, checks);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const settings = values[i];
    const path = ['previous_waf', 'packages', key];
    const id = resolvePackage(key);
    if (TraditionalPackageIds.has(id) && Object.keys(settings).length > 0) {
      checks.report(path, 'the CloudFlare package is a traditional package: it has no sensitivity or action_mode; '
        + 'set its groups and rules instead', 'key');
    }
    const first = seen.get(id);
    if (first !== undefined) checks.report(path, `is the same package as previous_waf.packages.${first}; keep one`, 'key');
    else seen.set(id, key);
  }
}
