/**
 * Export of `managed_rules` from the entry point (ruleset ids back to catalog
 * aliases; the OWASP 949110 override and the paranoia-level categories folded back into
 * `paranoia_level` / `score_threshold` / `action` when they have exactly the shape the manifest
 * produces, else written as raw overrides; skip rules written as managed-rules exceptions in their
 * places, unless their expression does not parse or their parameters are not one of the three
 * forms: those are left in the zone unmanaged and listed as not exported, and plans keep them).
 */
import type { ManagedRuleset, RuleOverride, CategoryOverride } from '../../manifest/index.js';
import { ManagedRulesetAliases, OwaspAnomalyRuleId, OwaspRulesetId, OwaspScoreThresholds } from '../../manifest/index.js';
import type { Canonicalizer } from '../canonical.js';
import { KeyAllocator, isValidKey } from '../export-keys.js';
import type { ExportedObject, SkippedObject } from '../export-types.js';
import { describeSkip } from './entrypoint-rules.js';
import { isExecuteRule, type EntrypointBody, type EntrypointRule, type ExecuteEntrypointRule, type LiveEntrypoint, type ManagedOverrides, type SkipEntrypointRule } from './live.js';

const Hex32 = /^[0-9a-f]{32}$/;
const ManagedActions: readonly string[] = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'];
const ParanoiaCategory = /^paranoia-level-([1-4])$/;

/** The `managed_rules` part of an export. */
export interface ManagedExport {
  items: ManagedRuleset[];
  objects: ExportedObject[];
  skipped: SkippedObject[];
  /** The entry point PUT that gives rules without a usable ref their key; null when none needs it. */
  adoption: EntrypointBody | null;
}

function aliasOf(rulesetId: string): string | undefined {
  return Object.entries(ManagedRulesetAliases).find(([, id]) => id === rulesetId)?.[0];
}

/** Why a rule that is not an execute cannot be written as an exception (it is then kept by plans); undefined when it can. */
function exceptionProblem(r: EntrypointRule, canon: Canonicalizer): string | undefined {
  const kept = 'so it stays in the zone unmanaged and plans keep it in its place (--prune would delete it)';
  if (r.action !== 'skip') return `action ${String((r as { action: unknown }).action)} is neither an execute of a managed ruleset nor a skip (an exception): ${kept}`;
  const c = canon(r.expression);
  if (!c.ok) return `a skip rule whose expression does not parse (${c.reason}): ${kept}`;
  const p = r.action_parameters;
  const forms = [p.ruleset === 'current', Array.isArray(p.rulesets), p.rules !== undefined && typeof p.rules === 'object'].filter(Boolean).length;
  if (forms !== 1) return `a skip rule (skips ${describeSkip(p)}) whose parameters are not one of ruleset: current, rulesets, rules: ${kept}`;
  return undefined;
}

/** One skip rule as a `managed_rules` exception item (ruleset ids back to catalog aliases). */
function exceptionItem(r: SkipEntrypointRule, key: string): ManagedRuleset {
  const p = r.action_parameters;
  let skip: NonNullable<ManagedRuleset['skip']>;
  if (p.ruleset === 'current') skip = 'current';
  else if (p.rulesets !== undefined) skip = { rulesets: p.rulesets.map((id) => aliasOf(id) ?? id) };
  else skip = { rules: Object.fromEntries(Object.entries(p.rules ?? {}).map(([id, ids]) => [aliasOf(id) ?? id, [...ids]])) };
  const item: ManagedRuleset = { ref: key, skip, expression: r.expression };
  if (r.description) item.description = r.description;
  if (!r.enabled) item.enabled = false;
  if (r.logging !== undefined && !r.logging.enabled) item.logging = { enabled: false };
  return item;
}

/** Why an execute rule cannot be written as a `managed_rules` item; undefined when it can. */
function managedProblem(r: ExecuteEntrypointRule, canon: Canonicalizer): string | undefined {
  if (aliasOf(r.action_parameters.id) === undefined && !Hex32.test(r.action_parameters.id)) return `ruleset id ${r.action_parameters.id} is not a 32-character hexadecimal id`;
  const c = canon(r.expression);
  if (!c.ok) return `its expression does not parse (${c.reason})`;
  const o = r.action_parameters.overrides;
  if (o?.action !== undefined && !ManagedActions.includes(o.action)) return `override action ${o.action} cannot be written in a manifest`;
  for (const c2 of o?.categories ?? []) {
    if ((c2.action !== undefined && !ManagedActions.includes(c2.action)) || (c2.action === undefined && c2.enabled === undefined)) return `category override ${c2.category} cannot be written in a manifest`;
  }
  for (const x of o?.rules ?? []) {
    const empty = x.action === undefined && x.enabled === undefined && x.score_threshold === undefined;
    if (!Hex32.test(x.id) || empty || (x.action !== undefined && !ManagedActions.includes(x.action))) return `rule override ${x.id} cannot be written in a manifest`;
  }
  return undefined;
}

/** The paranoia level that `categories` express exactly (levels above it disabled), else undefined. */
function paranoiaLevel(categories: NonNullable<ManagedOverrides['categories']>): number | undefined {
  const paranoia = categories.filter((c) => ParanoiaCategory.test(c.category));
  if (paranoia.length === 0 || paranoia.length > 3) return undefined;
  const level = 4 - paranoia.length;
  const expected = new Set(Array.from({ length: paranoia.length }, (_, i) => `paranoia-level-${level + 1 + i}`));
  const exact = paranoia.every((c) => expected.has(c.category) && c.enabled === false && c.action === undefined);
  return exact && new Set(paranoia.map((c) => c.category)).size === paranoia.length ? level : undefined;
}

/** Folds OWASP settings out of the overrides into the item; what is left stays raw. */
function foldOwasp(item: ManagedRuleset, o: ManagedOverrides): ManagedOverrides {
  let categories = o.categories ?? [];
  let rules = o.rules ?? [];
  const level = paranoiaLevel(categories);
  if (level !== undefined) {
    item.paranoia_level = level;
    categories = categories.filter((c) => !ParanoiaCategory.test(c.category));
  }
  const anomaly = rules.filter((r) => r.id === OwaspAnomalyRuleId);
  if (anomaly.length === 1 && anomaly[0].enabled === undefined) {
    const a = anomaly[0];
    if (a.action !== undefined) item.action = a.action as ManagedRuleset['action'];
    if (a.score_threshold !== undefined) {
      const named = Object.entries(OwaspScoreThresholds).find(([, v]) => v === a.score_threshold)?.[0];
      item.score_threshold = (named ?? a.score_threshold) as ManagedRuleset['score_threshold'];
    }
    rules = rules.filter((r) => r !== a);
  }
  return { ...o, categories, rules };
}

/** Overrides in the manifest's shape; undefined when nothing is left. */
function rawOverrides(o: ManagedOverrides): ManagedRuleset['overrides'] {
  const out: NonNullable<ManagedRuleset['overrides']> = {};
  if (o.action !== undefined) out.action = o.action as typeof out.action;
  if (o.enabled !== undefined) out.enabled = o.enabled;
  const categories = (o.categories ?? []).map((c) => defined({ category: c.category, action: c.action, enabled: c.enabled }) as CategoryOverride);
  const rules = (o.rules ?? []).map((r) => defined({ id: r.id, action: r.action, enabled: r.enabled, score_threshold: r.score_threshold }) as RuleOverride);
  if (categories.length > 0) out.categories = categories;
  if (rules.length > 0) out.rules = rules;
  return Object.keys(out).length > 0 ? out : undefined;
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** One entry point rule as a `managed_rules` item. */
function managedItem(r: ExecuteEntrypointRule, key: string, canon: Canonicalizer): ManagedRuleset {
  const rulesetId = r.action_parameters.id;
  const ruleset = aliasOf(rulesetId) ?? rulesetId;
  const item: ManagedRuleset = { ruleset };
  if (key !== ruleset) item.ref = key;
  if (!r.enabled) item.enabled = false;
  const c = canon(r.expression);
  if (!(c.ok && c.canonical === 'true')) item.expression = r.expression;
  if (r.description) item.description = r.description;
  let overrides = r.action_parameters.overrides ?? {};
  if (rulesetId === OwaspRulesetId) overrides = foldOwasp(item, overrides);
  const raw = rawOverrides(overrides);
  if (raw !== undefined) item.overrides = raw;
  return item;
}

/** Exports the entry point; undefined when the zone has none (the section is left out). */
export function exportManagedRules(entrypoint: LiveEntrypoint | null, canon: Canonicalizer): ManagedExport | undefined {
  if (entrypoint === null) return undefined;
  const out: ManagedExport = { items: [], objects: [], skipped: [], adoption: null };
  const keys = new KeyAllocator();
  const exportable: EntrypointRule[] = [];
  for (const r of entrypoint.rules) {
    const problem = isExecuteRule(r) ? managedProblem(r, canon) : exceptionProblem(r, canon);
    if (problem !== undefined) out.skipped.push({ kind: isExecuteRule(r) ? 'managed_ruleset' : 'managed_exception', id: r.id ?? '', ref: r.ref, reason: problem });
    else exportable.push(r);
  }
  const kept = new Set(exportable.filter((r) => isValidKey(r.ref) && keys.claim(r.ref)));
  const newRefs = new Map<EntrypointRule, string>();
  for (const r of exportable) {
    const base = isExecuteRule(r) ? aliasOf(r.action_parameters.id) ?? r.action_parameters.id : 'exception';
    const key = kept.has(r) ? r.ref! : keys.unique(base);
    if (!kept.has(r)) newRefs.set(r, key);
    out.items.push(isExecuteRule(r) ? managedItem(r, key, canon) : exceptionItem(r as SkipEntrypointRule, key));
    out.objects.push({ kind: isExecuteRule(r) ? 'managed_ruleset' : 'managed_exception', id: r.id ?? '', key, from: kept.has(r) ? 'ref' : 'ruleset', refChange: !kept.has(r), inline: false });
  }
  if (newRefs.size > 0) out.adoption = entrypointBody(entrypoint, newRefs);
  return out;
}

/** The entry point as it is, with new refs for the rules in `newRefs`. */
function entrypointBody(entrypoint: LiveEntrypoint, newRefs: Map<EntrypointRule, string>): EntrypointBody {
  const rules = entrypoint.rules.map((r) => {
    const { version: _v, last_updated: _l, ...rest } = r;
    return newRefs.has(r) ? { ...rest, ref: newRefs.get(r)! } : rest;
  });
  const body: EntrypointBody = { rules };
  if (entrypoint.name) body.name = entrypoint.name;
  if (entrypoint.description) body.description = entrypoint.description;
  return body;
}
