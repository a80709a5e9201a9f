/**
 * Reference checks between keys. Keys become the service's `ref`, and filters have one namespace:
 * shared filters (keyed in `filters`) and inline filters (whose ref is their rule's key). So a rule
 * must name a filter that exists in `filters`, an inline filter's ref must not also be a filter key,
 * and `renamed_from` must name one old object, claimed by nobody else.
 */
import { formatPath, type DocPath } from '../errors.js';
import { closest } from '../suggest.js';
import { entriesOf, isRecord, stringAt, type Checks, type Entries } from '../view.js';

/** Checks filter references, filter ref clashes and renames. */
export function checkRefs(checks: Checks, data: Record<string, unknown>): void {
  const filters = entriesOf(data.filters, checks);
  const rules = entriesOf(data.firewall_rules, checks);
  const filterKeys = sectionKeys(data.filters, filters);
  const inlineRefs = new Set<string>();
  for (let i = 0; i < rules.keys.length; i++) if (isRecord(rules.values[i].filter)) inlineRefs.add(rules.keys[i]);

  for (let i = 0; i < rules.keys.length; i++) {
    const key = rules.keys[i];
    const rule = rules.values[i];
    // The common case, a rule naming a filter that exists, is settled before any path is built.
    if (typeof rule.filter === 'string' && filterKeys.has(rule.filter)) continue;
    const path = ['firewall_rules', key, 'filter'];
    if (!checks.isClean(path)) continue;
    if (typeof rule.filter === 'string') {
      checkFilterReference(checks, path, rule.filter, filterKeys, inlineRefs);
    } else if (isRecord(rule.filter) && filterKeys.has(key)) {
      checks.report(path, `this inline filter's ref is the rule's key "${key}", which is also the key of `
        + `filters.${key} (line ${checks.lineOf(['filters', key])}): rename the rule, or use filter: ${key}`);
    }
  }
  const filterRenames = [...renamesOf(filters, 'filters', false), ...renamesOf(rules, 'firewall_rules', true)];
  checkRenames(checks, 'filter', filterRenames, (name) => filterKeys.has(name) || inlineRefs.has(name));
  const ruleRenames = renamesOf(rules, 'firewall_rules', false);
  const ruleKeys = ruleRenames.length === 0 ? new Set<string>() : new Set(rules.keys);
  checkRenames(checks, 'rule', ruleRenames, (name) => ruleKeys.has(name));
}

/** The keys of a section's entries that are maps (`entriesOf`), with a lookup. */
interface SectionKeys {
  has(name: string): boolean;
  readonly keys: readonly string[];
}

/**
 * The keys of `section` (whose entries are `entries`), looked up in the section itself: no set of
 * 1,000 keys per manifest. One lookup per name (each is a new string, which a lookup first finds in
 * V8's string table: `Object.hasOwn` then a read was twice that): what a map inherits from
 * `Object.prototype` is functions, but for `__proto__`, the prototype itself, which is asked whether own.
 */
function sectionKeys(section: unknown, entries: Entries): SectionKeys {
  if (!isRecord(section)) return { has: () => false, keys: entries.keys };
  return {
    has: (name) => isRecord(section[name]) && (name !== '__proto__' || Object.hasOwn(section, name)),
    keys: entries.keys,
  };
}

function checkFilterReference(checks: Checks, path: DocPath, name: string, filterKeys: SectionKeys, inlineRefs: Set<string>): void {
  if (filterKeys.has(name)) return;
  if (inlineRefs.has(name)) {
    checks.report(path, `filter "${name}" is the inline filter of firewall_rules.${name}; `
      + 'inline filters cannot be shared: move it to filters to share it');
    return;
  }
  const guess = closest(name, filterKeys.keys);
  const hint = guess !== undefined ? ` (did you mean "${guess}"?)` : filterKeys.keys.length === 0 ? '; the manifest has no filters section' : '';
  checks.report(path, `filter "${name}" is not a key of filters${hint}`);
}

interface Rename {
  /** The new key (the object's ref). */
  key: string;
  /** Where the rename is written. */
  path: DocPath;
  from: string;
}

/**
 * The renames written in a section's entries (only those with a `renamed_from` string). Inline
 * filters (`inlineOnly`, rules whose filter is a map) follow their rule's rename.
 */
function renamesOf(entries: Entries, section: string, inlineOnly: boolean): Rename[] {
  const out: Rename[] = [];
  for (let i = 0; i < entries.keys.length; i++) {
    const entry = entries.values[i];
    if (inlineOnly && !isRecord(entry.filter)) continue;
    const from = stringAt(entry, 'renamed_from');
    if (from !== undefined) out.push({ key: entries.keys[i], path: [section, entries.keys[i], 'renamed_from'], from });
  }
  return out;
}

/**
 * A rename keeps the live object with the old ref; so the old ref must not still be in use, must
 * differ from the new key, and must be claimed once.
 */
function checkRenames(checks: Checks, noun: 'filter' | 'rule', renames: Rename[], inUse: (name: string) => boolean): void {
  const claimed = new Map<string, DocPath>();
  for (const r of renames) {
    if (!checks.isClean(r.path)) continue;
    if (r.from === r.key) {
      checks.report(r.path, `renamed_from is the ${noun}'s own key; remove it`);
    } else if (inUse(r.from)) {
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
