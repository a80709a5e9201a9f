/**
 * Validation of `action_parameters`: for `execute`, the managed ruleset (known id, version) and its
 * overrides at ruleset, category and rule level (known categories and rule ids of that ruleset,
 * override actions, `score_threshold` only where the rule has one, no `sensitivity_level`, which is
 * for DDoS phases); for `skip`, exactly one of `ruleset: "current"`, `rulesets` or `rules`, every id
 * known. Plan entitlements are checked separately (`entitlements.ts`), since they depend on the zone.
 */
import { BodyReader, Problems, jsonType, pointerToken, quote } from '../body-reader.js';
import {
  OwaspThresholdActions,
  findManagedRule,
  findManagedRuleset,
  hasCategory,
  type ManagedRuleset,
} from '../catalog/index.js';
import { EntrypointLimits, RulesetOverrideActions } from './constants.js';
import { addProblem } from './errors.js';
import type { ManagedSkipParameters } from '../../api/index.js';
import type { CategoryOverride, ExecuteParameters, Overrides, RuleOverride } from './types.js';

/** Reads an `execute` rule's parameters. */
export function readExecuteParameters(value: unknown, pointer: string, problems: Problems): ExecuteParameters | undefined {
  const r = new BodyReader(value, pointer, problems);
  if (!r.valid) return undefined;
  r.allowOnly(['id', 'version', 'overrides', 'matched_data']);
  const id = r.string('id', { required: true });
  if (id === undefined) return undefined;
  const ruleset = resolveRuleset(id, `${pointer}/id`, problems);
  const out: ExecuteParameters = { id, version: 'latest' };
  const version = r.string('version');
  if (version !== undefined && ruleset !== undefined && version !== 'latest' && version !== ruleset.version) {
    problems.add(`${pointer}/version`, `version ${quote(version)} of ${ruleset.name} is not available; use "latest" or "${ruleset.version}"`);
  }
  if (r.has('matched_data')) {
    const m = new BodyReader(r.raw('matched_data'), `${pointer}/matched_data`, problems);
    m.allowOnly(['public_key']);
    const key = m.string('public_key', { required: true, nonEmpty: true });
    if (key !== undefined) out.matched_data = { public_key: key };
  }
  if (r.has('overrides')) {
    const overrides = readOverrides(r.raw('overrides'), `${pointer}/overrides`, ruleset, problems);
    if (overrides !== undefined && Object.keys(overrides).length > 0) out.overrides = overrides;
  }
  return ruleset === undefined ? undefined : out;
}

function resolveRuleset(id: string, pointer: string, problems: Problems): ManagedRuleset | undefined {
  const ruleset = findManagedRuleset(id);
  if (ruleset !== undefined && ruleset.id === id) return ruleset;
  const hint = ruleset !== undefined ? ` (did you mean ${ruleset.name}, ${ruleset.id}?)` : '';
  addProblem(problems, 'unknownRuleset', `unknown managed ruleset id ${quote(id)}${hint}: GET /zones/{zone_id}/rulesets lists the managed rulesets`, pointer);
  return undefined;
}

function readOverrides(value: unknown, pointer: string, ruleset: ManagedRuleset | undefined, problems: Problems): Overrides | undefined {
  const r = new BodyReader(value, pointer, problems);
  if (!r.valid) return undefined;
  r.allowOnly(['action', 'enabled', 'categories', 'rules', 'sensitivity_level']);
  if (r.has('sensitivity_level')) problems.add(`${pointer}/sensitivity_level`, 'sensitivity_level only applies to DDoS phases (ddos_l7); use categories or rules to tune a WAF managed ruleset');
  const out: Overrides = {};
  const action = readOverrideAction(r, problems);
  if (action !== undefined) out.action = action;
  const enabled = r.boolean('enabled');
  if (enabled !== undefined) out.enabled = enabled;
  const categories = readList(r, 'categories', problems, (item, at) => readCategory(item, at, ruleset, problems));
  if (categories !== undefined) out.categories = categories;
  const rules = readList(r, 'rules', problems, (item, at) => readRuleOverride(item, at, ruleset, problems));
  if (rules !== undefined) out.rules = rules;
  duplicateKeys(out.categories?.map((c) => c.category), `${pointer}/categories`, 'category', problems);
  duplicateKeys(out.rules?.map((o) => o.id), `${pointer}/rules`, 'rule', problems);
  return out;
}

function readList<T>(r: BodyReader, key: string, problems: Problems, read: (item: unknown, at: string) => T | undefined): T[] | undefined {
  if (!r.has(key)) return undefined;
  const raw = r.raw(key);
  if (!Array.isArray(raw)) {
    problems.add(r.at(key), `${key} must be an array, got ${jsonType(raw)}`);
    return undefined;
  }
  const out: T[] = [];
  raw.forEach((item, i) => {
    const v = read(item, `${r.at(key)}/${i}`);
    if (v !== undefined) out.push(v);
  });
  return out;
}

function readOverrideAction(r: BodyReader, problems: Problems, allowed: readonly string[] = RulesetOverrideActions): string | undefined {
  const action = r.string('action');
  if (action === undefined) return undefined;
  if (!allowed.includes(action)) {
    addProblem(problems, 'badAction', `${quote(action)} is not a valid override action; use one of ${allowed.join(', ')}`, r.at('action'));
    return undefined;
  }
  return action;
}

function readCategory(item: unknown, pointer: string, ruleset: ManagedRuleset | undefined, problems: Problems): CategoryOverride | undefined {
  const r = new BodyReader(item, pointer, problems, 'a category override object');
  if (!r.valid) return undefined;
  r.allowOnly(['category', 'action', 'enabled', 'sensitivity_level']);
  if (r.has('sensitivity_level')) problems.add(r.at('sensitivity_level'), 'sensitivity_level only applies to DDoS phases');
  const category = r.string('category', { required: true, nonEmpty: true });
  if (category !== undefined && ruleset !== undefined && !hasCategory(ruleset, category)) {
    addProblem(problems, 'unknownRule', `${ruleset.name} has no category ${quote(category)}: GET /zones/{zone_id}/rulesets/${ruleset.id} shows its rules and their categories`, r.at('category'));
  }
  const out: CategoryOverride = { category: category ?? '' };
  const action = readOverrideAction(r, problems);
  if (action !== undefined) out.action = action;
  const enabled = r.boolean('enabled');
  if (enabled !== undefined) out.enabled = enabled;
  return category === undefined ? undefined : out;
}

function readRuleOverride(item: unknown, pointer: string, ruleset: ManagedRuleset | undefined, problems: Problems): RuleOverride | undefined {
  const r = new BodyReader(item, pointer, problems, 'a rule override object');
  if (!r.valid) return undefined;
  r.allowOnly(['id', 'action', 'enabled', 'score_threshold', 'sensitivity_level']);
  if (r.has('sensitivity_level')) problems.add(r.at('sensitivity_level'), 'sensitivity_level only applies to DDoS phases');
  const id = r.string('id', { required: true, nonEmpty: true });
  const rule = id !== undefined && ruleset !== undefined ? findManagedRule(ruleset, id) : undefined;
  if (id !== undefined && ruleset !== undefined && rule === undefined) {
    addProblem(problems, 'unknownRule', `${ruleset.name} has no rule ${quote(id)}: GET /zones/{zone_id}/rulesets/${ruleset.id} lists its rules`, r.at('id'));
  }
  const out: RuleOverride = { id: id ?? '' };
  const action = readOverrideAction(r, problems, rule?.score_threshold !== undefined ? OwaspThresholdActions : RulesetOverrideActions);
  if (action !== undefined) out.action = action;
  const enabled = r.boolean('enabled');
  if (enabled !== undefined) out.enabled = enabled;
  const threshold = readThreshold(r, rule?.score_threshold !== undefined, rule?.description, problems);
  if (threshold !== undefined) out.score_threshold = threshold;
  return id === undefined ? undefined : out;
}

function readThreshold(r: BodyReader, allowed: boolean, description: string | undefined, problems: Problems): number | undefined {
  const value = r.number('score_threshold', { min: 1, max: EntrypointLimits.scoreThresholdMax });
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value)) return void problems.add(r.at('score_threshold'), `score_threshold must be an integer; got ${value}`);
  if (!allowed) {
    return void problems.add(r.at('score_threshold'),
      `score_threshold only applies to the OWASP Core Ruleset's anomaly score rule (949110: Inbound Anomaly Score Exceeded)${description ? `, not to "${description}"` : ''}`);
  }
  return value;
}

function duplicateKeys(keys: string[] | undefined, pointer: string, what: string, problems: Problems): void {
  const seen = new Set<string>();
  keys?.forEach((k, i) => {
    if (seen.has(k)) problems.add(`${pointer}/${i}`, `${what} ${quote(k)} is overridden twice; merge the two overrides`);
    seen.add(k);
  });
}

/** Reads a `skip` rule's parameters: exactly one of `ruleset`, `rulesets`, `rules`. */
export function readSkipParameters(value: unknown, pointer: string, problems: Problems): ManagedSkipParameters | undefined {
  const r = new BodyReader(value, pointer, problems);
  if (!r.valid) return undefined;
  r.allowOnly(['ruleset', 'rulesets', 'rules']);
  const given = ['ruleset', 'rulesets', 'rules'].filter((k) => r.has(k));
  if (given.length !== 1) {
    problems.add(pointer, `a skip rule takes exactly one of ruleset ("current"), rulesets or rules; got ${given.length === 0 ? 'none' : given.join(', ')}`);
    return undefined;
  }
  const before = problems.list.length;
  const out: ManagedSkipParameters = {};
  if (r.has('ruleset')) {
    if (r.raw('ruleset') !== 'current') problems.add(r.at('ruleset'), `ruleset must be "current" (skip the remaining rules of this entry point); got ${quote(r.raw('ruleset'))}`);
    else out.ruleset = 'current';
  } else if (r.has('rulesets')) {
    const ids = readList(r, 'rulesets', problems, (item, at) => (typeof item === 'string' ? item : void problems.add(at, `expected a ruleset id, got ${jsonType(item)}`)));
    ids?.forEach((id, i) => resolveRuleset(id, `${pointer}/rulesets/${i}`, problems));
    listedTwice(ids, `${pointer}/rulesets`, 'managed ruleset', problems);
    if (ids !== undefined && ids.length === 0) problems.add(r.at('rulesets'), 'rulesets must list at least one managed ruleset id');
    if (ids !== undefined) out.rulesets = ids;
  } else {
    out.rules = readSkipRules(r.raw('rules'), r.at('rules'), problems);
  }
  return problems.list.length === before ? out : undefined;
}

function readSkipRules(value: unknown, pointer: string, problems: Problems): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add(pointer, `rules must be an object mapping a managed ruleset id to rule ids, got ${jsonType(value)}`);
    return out;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) problems.add(pointer, 'rules must name at least one managed ruleset');
  for (const [rulesetId, ids] of entries) {
    const at = `${pointer}/${pointerToken(rulesetId)}`;
    const ruleset = resolveRuleset(rulesetId, at, problems);
    if (!Array.isArray(ids) || ids.length === 0 || ids.some((x) => typeof x !== 'string')) {
      problems.add(at, 'expected a non-empty array of rule ids');
      continue;
    }
    ids.forEach((id: string, i) => {
      if (ruleset && !findManagedRule(ruleset, id)) addProblem(problems, 'unknownRule', `${ruleset.name} has no rule ${quote(id)}`, `${at}/${i}`);
    });
    listedTwice(ids as string[], at, 'rule', problems);
    out[rulesetId] = [...ids] as string[];
  }
  return out;
}

/**
 * Refuses an id listed twice in one exception (`rulesets`, or one ruleset's rule ids): the second
 * place is named (decision: the reference is silent; the engine refuses a repeated value in one
 * body everywhere else: overrides, characteristics, a custom skip's phases and products).
 */
function listedTwice(ids: readonly string[] | undefined, pointer: string, what: string, problems: Problems): void {
  const first = new Map<string, number>();
  ids?.forEach((id, i) => {
    const at = first.get(id);
    if (at !== undefined) problems.add(`${pointer}/${i}`, `${what} ${quote(id)} is listed twice (also at ${pointer}/${at}); list each once`);
    else first.set(id, i);
  });
}
