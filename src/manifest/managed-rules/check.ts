/**
 * Checks of the WAF sections: `managed_rules` (unique refs, each category and rule overridden once,
 * OWASP shorthands not fighting explicit overrides), `previous_waf` (anomaly packages only, one entry
 * per package) and `waf_migration` (it needs a configuration to migrate to, and the previous WAF is
 * gone once the migration finishes).
 */
import {
  OwaspAnomalyRuleId, OwaspRulesetId, TraditionalPackageIds, resolveManagedRuleset, resolvePackage,
} from './catalog.js';
import { formatPath, type DocPath } from '../errors.js';
import { entriesOf, isRecord, stringAt, type Checks } from '../view.js';

/** The entry point rule ref of a managed ruleset item: `ref`, else the alias, else the id. */
export function managedRef(item: Record<string, unknown>): string | undefined {
  return stringAt(item, 'ref') ?? stringAt(item, 'ruleset');
}

/** Checks `managed_rules`. */
export function checkManagedRules(checks: Checks, data: Record<string, unknown>): void {
  if (!Array.isArray(data.managed_rules)) return;
  const refs = new Map<string, DocPath>();
  data.managed_rules.forEach((item: unknown, i) => {
    const path: DocPath = ['managed_rules', i];
    if (!isRecord(item)) return;
    const ref = managedRef(item);
    if (ref !== undefined && checks.isClean([...path, 'ref']) && checks.isClean([...path, 'ruleset'])) {
      const first = refs.get(ref);
      if (first === undefined) refs.set(ref, path);
      else {
        checks.report(item.ref === undefined ? [...path, 'ruleset'] : [...path, 'ref'], `ref "${ref}" is already used by `
          + `${formatPath(first)} (line ${checks.lineOf(first)}); give one of them its own ref`);
      }
    }
    const overrides = isRecord(item.overrides) ? item.overrides : {};
    onlyOnce(checks, [...path, 'overrides', 'categories'], overrides.categories, 'category');
    onlyOnce(checks, [...path, 'overrides', 'rules'], overrides.rules, 'id');
    if (typeof item.ruleset === 'string' && resolveManagedRuleset(item.ruleset) === OwaspRulesetId) {
      checkOwaspShorthands(checks, path, item, overrides);
    } else if (item.action !== undefined && overrides.action !== undefined) {
      checks.report([...path, 'action'], 'sets the same thing as overrides.action; keep one of them');
    }
  });
}

/** Reports list items whose `field` repeats an earlier item's. */
function onlyOnce(checks: Checks, path: DocPath, list: unknown, field: string): void {
  if (!Array.isArray(list)) return;
  const seen = new Map<unknown, number>();
  list.forEach((entry: unknown, i) => {
    if (!isRecord(entry) || typeof entry[field] !== 'string') return;
    const first = seen.get(entry[field]);
    if (first === undefined) seen.set(entry[field], i);
    else {
      checks.report([...path, i, field], `${field} "${String(entry[field])}" is already overridden by `
        + `${formatPath([...path, first])}; merge the two overrides`);
    }
  });
}

/** `paranoia_level`, `score_threshold` and `action` write overrides; explicit ones must not say otherwise. */
function checkOwaspShorthands(checks: Checks, path: DocPath, item: Record<string, unknown>, overrides: Record<string, unknown>): void {
  if (item.paranoia_level !== undefined && Array.isArray(overrides.categories)) {
    overrides.categories.forEach((c: unknown, i) => {
      if (isRecord(c) && typeof c.category === 'string' && /^paranoia-level-\d+$/.test(c.category)) {
        checks.report([...path, 'overrides', 'categories', i, 'category'], `conflicts with paranoia_level, which sets `
          + 'the paranoia-level categories: keep one of them');
      }
    });
  }
  if ((item.score_threshold !== undefined || item.action !== undefined) && Array.isArray(overrides.rules)) {
    overrides.rules.forEach((r: unknown, i) => {
      if (isRecord(r) && r.id === OwaspAnomalyRuleId) {
        checks.report([...path, 'overrides', 'rules', i, 'id'], 'conflicts with score_threshold/action, which override '
          + 'this rule (949110: Inbound Anomaly Score Exceeded): keep one of them');
      }
    });
  }
}

/** Checks `previous_waf` and `waf_migration`. */
export function checkPreviousWaf(checks: Checks, data: Record<string, unknown>): void {
  const waf = data.previous_waf;
  if (data.waf_migration === 'pending' && waf !== undefined) {
    checks.report(['previous_waf'], 'the previous WAF is gone once migration finishes (waf_migration: pending); '
      + 'remove previous_waf or run zonewall migrate', 'key');
  }
  if ((data.waf_migration === 'validation' || data.waf_migration === 'pending') && data.managed_rules === undefined) {
    checks.report(['waf_migration'], `waf_migration: ${data.waf_migration} needs a managed_rules section: `
      + 'the managed rulesets to migrate to (see zonewall migrate)');
  }
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

