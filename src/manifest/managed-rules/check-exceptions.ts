/**
 * Checks of the managed-rules exceptions of `managed_rules` (items with `skip`), the refusals the
 * service would make at apply time or that would leave an exception doing nothing:
 *
 * - an item is a deployment (`ruleset`) or an exception (`skip`), never both or neither, and the
 *   fields of the other form are refused at their key;
 * - an exception has a `ref` (no default) and an `expression`;
 * - every ruleset it names is a managed ruleset of the catalog, and every rule id a rule of that
 *   ruleset (20201/20202 at apply time), with "did you mean";
 * - no ruleset or rule is named twice (an alias and the id of one ruleset count as the same; the
 *   engine refuses a repeated id, and two keys of one ruleset would leave one list in the service's map);
 * - it skips something: `rulesets`/`rules` are not empty, and what it names is deployed by an item
 *   after it (a skip rule skips only the rules after it in the entry point: one placed after the
 *   deployment it names skips nothing, so it is refused where it stands, naming that deployment).
 */
import { formatPath, type DocPath } from '../errors.js';
import { ManagedCatalog } from '../generated/managed-catalog.js';
import { closest } from '../suggest.js';
import { isRecord, type Checks } from '../view.js';
import { ManagedRulesetAliases, resolveManagedRuleset } from './catalog.js';

/** Fields only a deployment (an item with `ruleset`) may have. */
const DeploymentFields = ['ruleset', 'overrides', 'action', 'paranoia_level', 'score_threshold'] as const;

/** ", did you mean X?" when a close candidate exists. */
function hint(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates);
  return near === undefined ? '' : `; did you mean "${near}"?`;
}

/** Where each deployed ruleset id is deployed: item indexes, in order. */
function deployments(items: readonly unknown[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  items.forEach((item, i) => {
    if (!isRecord(item) || item.skip !== undefined || typeof item.ruleset !== 'string') return;
    const id = resolveManagedRuleset(item.ruleset);
    out.set(id, [...(out.get(id) ?? []), i]);
  });
  return out;
}

/** Checks every item's form, and every exception. */
export function checkManagedExceptions(checks: Checks, data: Record<string, unknown>): void {
  if (!Array.isArray(data.managed_rules)) return;
  const items: readonly unknown[] = data.managed_rules;
  const deployed = deployments(items);
  items.forEach((item, i) => {
    const path: DocPath = ['managed_rules', i];
    if (!isRecord(item) || !checks.isClean(path)) return;
    if (item.skip === undefined) {
      if (item.ruleset === undefined) checks.report(path, 'needs `ruleset` (deploy a managed ruleset) or `skip` (a managed-rules exception)');
      if (item.logging !== undefined) checks.report([...path, 'logging'], 'is for exceptions only (items with `skip`); a deployment is logged by its rules', 'key');
      return;
    }
    for (const field of DeploymentFields) {
      if (item[field] !== undefined) {
        checks.report([...path, field], 'is for deployments (items with `ruleset`); an exception says what it skips in `skip`, nothing else', 'key');
      }
    }
    if (item.ref === undefined) checks.report([...path, 'skip'], 'an exception needs a `ref` (plans match it to the zone\'s skip rule by it): add e.g. `ref: office-sqlmap`', 'key');
    if (item.expression === undefined) checks.report([...path, 'skip'], 'an exception needs an `expression`: the requests it lets past the skipped managed rules ("true" for all of them)', 'key');
    checkSkip(checks, path, item.skip, i, deployed);
  });
}

function checkSkip(checks: Checks, path: DocPath, skip: unknown, index: number, deployed: Map<string, number[]>): void {
  const at: DocPath = [...path, 'skip'];
  if (skip === 'current') {
    const later = [...deployed.values()].some((places) => places.some((p) => p > index));
    if (!later) checks.report(at, 'skips nothing: `current` skips the entries after the exception, and no entry after it deploys a managed ruleset', 'value');
    return;
  }
  if (!isRecord(skip)) return;
  if (Array.isArray(skip.rulesets)) {
    if (skip.rulesets.length === 0) checks.report([...at, 'rulesets'], 'skips nothing: name at least one managed ruleset (or remove the exception)', 'value');
    const named = new Map<string, number>();
    skip.rulesets.forEach((name: unknown, j) => {
      if (typeof name !== 'string') return;
      const id = checkRuleset(checks, [...at, 'rulesets', j], 'value', name, index, deployed);
      const first = id === undefined ? undefined : named.get(id);
      if (first !== undefined) checks.report([...at, 'rulesets', j], `names ${name} a second time (${formatPath([...at, 'rulesets', first])} names it already); list each ruleset once`, 'value');
      else if (id !== undefined) named.set(id, j);
    });
  }
  if (isRecord(skip.rules)) {
    const names = Object.keys(skip.rules);
    if (names.length === 0) checks.report([...at, 'rules'], 'skips nothing: name a managed ruleset and the ids of its rules to skip', 'value');
    const keyOf = new Map<string, string>();
    for (const name of names) {
      const rulesAt: DocPath = [...at, 'rules', name];
      const id = checkRuleset(checks, rulesAt, 'key', name, index, deployed);
      // An alias and the id of one ruleset would become one key of the service's map: one list lost.
      const first = id === undefined ? undefined : keyOf.get(id);
      if (first !== undefined) checks.report(rulesAt, `names the ruleset ${first} names already (${id}); merge the two lists under one key`, 'key');
      else if (id !== undefined) keyOf.set(id, name);
      const list = skip.rules[name];
      if (!Array.isArray(list)) continue;
      if (list.length === 0) checks.report(rulesAt, `skips nothing of ${name}: list the ids of the rules to skip`, 'value');
      list.forEach((rule: unknown, k) => {
        if (typeof rule === 'string' && list.indexOf(rule) < k) checks.report([...rulesAt, k], `rule ${rule} is listed twice (also at ${formatPath([...rulesAt, list.indexOf(rule)])}); list each rule once`, 'value');
      });
      const entry = id === undefined ? undefined : ManagedCatalog[id];
      if (entry === undefined) continue;
      list.forEach((rule: unknown, k) => {
        if (typeof rule === 'string' && !entry.rules.includes(rule)) {
          checks.report([...rulesAt, k], `${entry.name} has no rule ${rule}${hint(rule, entry.rules)}`, 'value');
        }
      });
    }
  }
}

/** Checks one named ruleset; returns its id when the catalog has it. */
function checkRuleset(checks: Checks, at: DocPath, anchor: 'key' | 'value', name: string, index: number, deployed: Map<string, number[]>): string | undefined {
  const id = resolveManagedRuleset(name);
  const entry = ManagedCatalog[id];
  if (entry === undefined) {
    const known = [...Object.keys(ManagedRulesetAliases), ...Object.keys(ManagedCatalog)];
    checks.report(at, `${name} is not a managed ruleset of the catalog${hint(name, known)} (aliases: ${Object.keys(ManagedRulesetAliases).join(', ')}, or a ruleset id)`, anchor);
    return undefined;
  }
  const places = deployed.get(id) ?? [];
  if (places.some((p) => p > index)) return id;
  const before = places.find((p) => p < index);
  if (before !== undefined) {
    const where: DocPath = ['managed_rules', before];
    checks.report(at, `skips ${name}, but ${formatPath(where)} (line ${checks.lineOf(where)}) deploys it before this exception, which skips only the entries after it: move the exception above it`, anchor);
  } else {
    checks.report(at, `skips ${name}, which no entry of managed_rules deploys: the exception would skip nothing`, anchor);
  }
  return id;
}
