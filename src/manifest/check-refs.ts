/**
 * Reference checks between keys. Keys become the service's `ref`, and filters have one namespace:
 * shared filters (keyed in `filters`) and inline filters (whose ref is their rule's key). So a rule
 * must name a filter that exists in `filters`, an inline filter's ref must not also be a filter key,
 * and `renamed_from` must name one old object, claimed by nobody else.
 */
import { formatPath, type DocPath } from './errors.js';
import { closest } from './suggest.js';
import { entriesOf, isRecord, stringAt, type Checks } from './view.js';

/** Checks filter references, filter ref clashes and renames. */
export function checkRefs(checks: Checks, data: Record<string, unknown>): void {
  const filters = entriesOf(data.filters);
  const rules = entriesOf(data.firewall_rules);
  const filterKeys = new Set(filters.map(([k]) => k));
  const inlineRefs = new Set(rules.filter(([, r]) => isRecord(r.filter)).map(([k]) => k));

  for (const [key, rule] of rules) {
    const path = ['firewall_rules', key, 'filter'];
    if (!checks.isClean(path)) continue;
    if (typeof rule.filter === 'string') {
      checkFilterReference(checks, path, rule.filter, filterKeys, inlineRefs);
    } else if (isRecord(rule.filter) && filterKeys.has(key)) {
      checks.report(path, `this inline filter's ref is the rule's key "${key}", which is also the key of `
        + `filters.${key} (line ${checks.lineOf(['filters', key])}): rename the rule, or use filter: ${key}`);
    }
  }
  checkRenames(checks, 'filter', filterRenames(filters, rules), new Set([...filterKeys, ...inlineRefs]));
  checkRenames(checks, 'rule', rules.map(([k, r]) => ({ key: k, path: ['firewall_rules', k, 'renamed_from'], from: stringAt(r, 'renamed_from') })), new Set(rules.map(([k]) => k)));
}

function checkFilterReference(checks: Checks, path: DocPath, name: string, filterKeys: Set<string>, inlineRefs: Set<string>): void {
  if (filterKeys.has(name)) return;
  if (inlineRefs.has(name)) {
    checks.report(path, `filter "${name}" is the inline filter of firewall_rules.${name}; `
      + 'inline filters cannot be shared: move it to filters to share it');
    return;
  }
  const guess = closest(name, filterKeys);
  const hint = guess !== undefined ? ` (did you mean "${guess}"?)` : filterKeys.size === 0 ? '; the manifest has no filters section' : '';
  checks.report(path, `filter "${name}" is not a key of filters${hint}`);
}

interface Rename {
  /** The new key (the object's ref). */
  key: string;
  /** Where the rename is written. */
  path: DocPath;
  from: string | undefined;
}

/** Filter renames: shared filters' own, and inline filters', which follow their rule's rename. */
function filterRenames(filters: readonly [string, Record<string, unknown>][], rules: readonly [string, Record<string, unknown>][]): Rename[] {
  const own = filters.map(([k, f]) => ({ key: k, path: ['filters', k, 'renamed_from'], from: stringAt(f, 'renamed_from') }));
  const inline = rules
    .filter(([, r]) => isRecord(r.filter))
    .map(([k, r]) => ({ key: k, path: ['firewall_rules', k, 'renamed_from'], from: stringAt(r, 'renamed_from') }));
  return [...own, ...inline];
}

/**
 * A rename keeps the live object with the old ref; so the old ref must not still be in use, must
 * differ from the new key, and must be claimed once.
 */
function checkRenames(checks: Checks, noun: 'filter' | 'rule', renames: Rename[], inUse: Set<string>): void {
  const claimed = new Map<string, DocPath>();
  for (const r of renames) {
    if (r.from === undefined || !checks.isClean(r.path)) continue;
    if (r.from === r.key) {
      checks.report(r.path, `renamed_from is the ${noun}'s own key; remove it`);
    } else if (inUse.has(r.from)) {
      checks.report(r.path, `renamed_from "${r.from}" names a ${noun} key that is still in the manifest; `
        + `a rename moves the live ${noun} from the old key to the new one, so the old key must be gone`);
    } else if (claimed.has(r.from)) {
      const first = claimed.get(r.from)!;
      checks.report(r.path, `renamed_from "${r.from}" is already claimed by ${formatPath(first.slice(0, -1))} `
        + `(line ${checks.lineOf(first)}); one live ${noun} can only become one new ${noun}`);
    } else {
      claimed.set(r.from, r.path);
    }
  }
}
