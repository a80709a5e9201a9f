/**
 * Checks of `managed_rules`: each item's expression (phase `http_request_firewall_managed`), unique
 * refs, each managed ruleset deployed once (the service refuses a second execute rule of one, 20014),
 * each category and rule overridden once, and the OWASP shorthands not fighting explicit
 * overrides. What the catalog says of rulesets, rules and categories is `check-catalog.ts`.
 */
import { formatPath, type DocPath } from '../errors.js';
import { checkEntryExpression, type CheckedExpression } from '../expression-check.js';
import { isRecord, stringAt, type Checks } from '../view.js';
import { OwaspAnomalyRuleId, OwaspRulesetId, resolveManagedRuleset } from './catalog.js';

/** Checks the expression of every item that has one; returns the valid ones by index of the item. */
export function checkManagedExpressions(checks: Checks, data: Record<string, unknown>): (CheckedExpression | undefined)[] {
  const valid: (CheckedExpression | undefined)[] = [];
  if (!Array.isArray(data.managed_rules)) return valid;
  for (const [i, item] of data.managed_rules.entries()) {
    if (!isRecord(item) || item.expression === undefined) continue;
    const checked = checkEntryExpression(checks, item.expression, 'managed_rules', i, true);
    if (checked !== undefined) valid[i] = checked;
  }
  return valid;
}

/** The entry point rule ref of a managed ruleset item: `ref`, else the alias, else the id. */
export function managedRef(item: Record<string, unknown>): string | undefined {
  return stringAt(item, 'ref') ?? stringAt(item, 'ruleset');
}

/** Checks `managed_rules`. */
export function checkManagedRules(checks: Checks, data: Record<string, unknown>): void {
  if (!Array.isArray(data.managed_rules)) return;
  const refs = new Map<string, DocPath>();
  const deployed = new Map<string, DocPath>();
  data.managed_rules.forEach((item: unknown, i) => {
    const path: DocPath = ['managed_rules', i];
    if (!isRecord(item)) return;
    // A second deployment of one ruleset is the error to show (its default ref is the first's too).
    let twice = false;
    if (typeof item.ruleset === 'string' && item.skip === undefined && checks.isClean([...path, 'ruleset'])) {
      const id = resolveManagedRuleset(item.ruleset);
      const first = deployed.get(id);
      if (first === undefined) deployed.set(id, path);
      else {
        twice = true;
        checks.report([...path, 'ruleset'], `deploys ${item.ruleset} a second time (${formatPath(first)}, line ${checks.lineOf(first)}, deploys it already): `
          + 'the service refuses two execute rules of one managed ruleset (20014); keep one deployment, whose expression and overrides cover both');
      }
    }
    const ref = managedRef(item);
    if (!twice && ref !== undefined && checks.isClean([...path, 'ref']) && checks.isClean([...path, 'ruleset'])) {
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
