/**
 * The `http_request_firewall_managed` entry point: which managed rulesets run, in which order, with
 * which overrides. Entry point rules are matched by ref (an unmatched desired ruleset adopts an
 * unmatched live rule executing the same ruleset, e.g. one the migration created). The planner
 * emits one change per rule for review but a single write: the API replaces the whole entry point
 * with one PUT. Live rules whose ref is empty or equals their id were not written by zonewall:
 * they are kept in the PUT body, in their place after the managed rules, unless `--prune`.
 * Without a `managed_rules` section the entry point is left alone.
 */
import type { DesiredManagedOverrides, DesiredManagedRuleset, DesiredZone } from '../manifest/index.js';
import type { Canonicalizer } from './canonical.js';
import { changedAttributes, noOpChange, type AttributeValue, type Attributes, type Change } from './change.js';
import type { EntrypointRule, LiveZone, ManagedOverrides } from './live.js';
import type { UnmanagedObject } from './plan.js';
import { finding, type Finding } from './finding.js';

/** What the entry point diff found. */
export interface ManagedDiff {
  changes: Change[];
  findings: Finding[];
  unmanaged: UnmanagedObject[];
  /** The rules of the PUT body; null when nothing of the entry point changes. */
  rules: EntrypointRule[] | null;
}

function strip<T extends object>(o: T): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v as AttributeValue;
  return out;
}

/** Overrides in a comparable form: no empty parts, categories and rules sorted. */
export function normalizeOverrides(o: ManagedOverrides | DesiredManagedOverrides | undefined): Attributes | null {
  if (o === undefined) return null;
  const out: Attributes = strip({ action: o.action, enabled: o.enabled });
  const cats = (o.categories ?? []).map((c) => strip({ category: c.category, action: c.action, enabled: c.enabled }))
    .sort((a, b) => String(a.category).localeCompare(String(b.category)));
  const rules = (o.rules ?? []).map((r) => strip({ id: r.id, action: r.action, enabled: r.enabled, score_threshold: r.score_threshold }))
    .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  if (cats.length > 0) out.categories = cats;
  if (rules.length > 0) out.rules = rules;
  return Object.keys(out).length > 0 ? out : null;
}

/** True for an entry point rule zonewall did not write (the API defaults `ref` to the id). */
export function isUnmanagedEntrypointRule(r: EntrypointRule): boolean {
  return r.ref === undefined || r.ref === '' || r.ref === r.id;
}

function liveAttributes(r: EntrypointRule, canon: Canonicalizer): Attributes {
  const c = canon(r.expression);
  return {
    ruleset: r.action_parameters.id,
    enabled: r.enabled,
    expression: c.ok ? c.canonical : r.expression,
    description: r.description ?? '',
    overrides: normalizeOverrides(r.action_parameters.overrides),
    ref: r.ref ?? '',
  };
}

function desiredAttributes(d: DesiredManagedRuleset): Attributes {
  return {
    ruleset: d.rulesetId,
    enabled: d.enabled,
    expression: d.expression,
    description: d.description,
    overrides: normalizeOverrides(d.overrides),
    ref: d.ref,
  };
}

function bodyRule(d: DesiredManagedRuleset, liveId: string | undefined): EntrypointRule {
  const overrides = normalizeOverrides(d.overrides) as ManagedOverrides | null;
  return {
    ...(liveId !== undefined ? { id: liveId } : {}),
    ref: d.ref,
    action: 'execute',
    expression: d.expression,
    description: d.description,
    enabled: d.enabled,
    action_parameters: { id: d.rulesetId, ...(overrides !== null ? { overrides } : {}) },
  };
}

/** A live rule as sent back unchanged: server-filled fields left out. */
function keptRule(r: EntrypointRule): EntrypointRule {
  const { version: _v, last_updated: _l, ...rest } = r;
  return rest;
}

function matchRulesets(desired: readonly DesiredManagedRuleset[], live: readonly EntrypointRule[]): Map<DesiredManagedRuleset, number> {
  const out = new Map<DesiredManagedRuleset, number>();
  const claimed = new Set<number>();
  for (const d of desired) {
    const i = live.findIndex((r, j) => !claimed.has(j) && r.ref === d.ref && !isUnmanagedEntrypointRule(r));
    if (i >= 0) { out.set(d, i); claimed.add(i); }
  }
  for (const d of desired) {
    if (out.has(d)) continue;
    const i = live.findIndex((r, j) => !claimed.has(j) && r.action_parameters.id === d.rulesetId);
    if (i >= 0) { out.set(d, i); claimed.add(i); }
  }
  return out;
}

/** Changes of the desired rulesets: create, update (attributes, ref, position) or no-op. */
function diffWanted(wanted: readonly DesiredManagedRuleset[], liveRules: readonly EntrypointRule[], matched: Map<DesiredManagedRuleset, number>, canon: Canonicalizer): Change[] {
  // Relative order of the matched rules, live and desired, so inserts do not count as moves.
  const liveRank = new Map([...matched.values()].sort((a, b) => a - b).map((i, rank) => [i, rank + 1]));
  const changes: Change[] = [];
  let desiredRank = 0;
  for (const d of wanted) {
    const after = desiredAttributes(d);
    const i = matched.get(d);
    if (i === undefined) {
      changes.push({ kind: 'managed_ruleset', action: 'create', reason: 'new', ref: d.ref, before: null, after, changed: Object.keys(after), writes: [] });
      continue;
    }
    const l = liveRules[i]!;
    const before = liveAttributes(l, canon);
    desiredRank += 1;
    before.position = liveRank.get(i)!;
    after.position = desiredRank;
    const changed = changedAttributes(before, after);
    if (changed.length === 0) {
      changes.push(noOpChange('managed_ruleset', d.ref, l.id));
      continue;
    }
    const reason = changed.includes('ref') ? 'renamed' : changed.every((n) => n === 'position') ? 'reordered' : 'changed';
    changes.push({ kind: 'managed_ruleset', action: 'update', reason, ref: d.ref, ...(l.id !== undefined ? { id: l.id } : {}), before, after, changed, writes: [] });
  }
  return changes;
}

/** Live rules no desired ruleset matched: deleted when zonewall wrote them (or pruned), else kept. */
function diffLeftover(liveRules: readonly EntrypointRule[], claimed: Set<number>, canon: Canonicalizer, prune: boolean) {
  const changes: Change[] = [];
  const unmanaged: UnmanagedObject[] = [];
  const kept: EntrypointRule[] = [];
  liveRules.forEach((l, i) => {
    if (claimed.has(i)) return;
    const own = !isUnmanagedEntrypointRule(l);
    if (!own && !prune) {
      kept.push(keptRule(l));
      unmanaged.push({ kind: 'managed_ruleset', id: l.id ?? '', summary: `execute ${l.action_parameters.id}${l.enabled ? '' : ' (disabled)'}` });
      return;
    }
    const before = liveAttributes(l, canon);
    changes.push({ kind: 'managed_ruleset', action: 'delete', reason: own ? 'not-in-manifest' : 'prune', ref: own ? l.ref! : '',
      ...(l.id !== undefined ? { id: l.id } : {}), before, after: null, changed: Object.keys(before), writes: [] });
  });
  return { changes, unmanaged, kept };
}

/** Changes of the managed entry point, and the PUT body when anything differs. */
export function diffManaged(desired: DesiredZone, live: LiveZone, canon: Canonicalizer, prune: boolean): ManagedDiff {
  const wanted = desired.managedRules;
  if (wanted === undefined) return { changes: [], findings: [], unmanaged: [], rules: null };
  const liveRules = live.entrypoint?.rules ?? [];
  const findings = liveRules.flatMap((r) => {
    const c = canon(r.expression);
    return c.ok ? [] : [finding('unparsable-live-expression',
      `entry point rule ${r.id ?? ''} (ref "${r.ref ?? ''}"): the zone's expression does not parse (${c.reason}); it is treated as different`, { kind: 'managed_ruleset', ref: r.ref ?? '' })];
  });
  const matched = matchRulesets(wanted, liveRules);
  const leftover = diffLeftover(liveRules, new Set(matched.values()), canon, prune);
  const changes = [...diffWanted(wanted, liveRules, matched, canon), ...leftover.changes];
  const differs = changes.some((c) => c.action !== 'no-op');
  const rules = differs ? [...wanted.map((d) => bodyRule(d, matched.has(d) ? liveRules[matched.get(d)!]!.id : undefined)), ...leftover.kept] : null;
  return { changes, findings, unmanaged: leftover.unmanaged, rules };
}
