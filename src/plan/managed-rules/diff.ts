/**
 * The `http_request_firewall_managed` entry point: which managed rulesets run, in which order, with
 * which overrides, and the managed-rules exceptions (skip rules) before them. Entry point rules are
 * matched by ref (an unmatched desired ruleset adopts an unmatched live rule executing the same
 * ruleset, an unmatched exception a live skip rule it describes, e.g. ones the migration created).
 * The planner emits one change per rule for review but a single write: the API replaces the whole
 * entry point with one PUT. Live rules zonewall did not write (ref empty or equal to their id) are
 * kept in the PUT body, unless `--prune`, and keep their places: the body is the live list with
 * each matched rule's place taken by a desired entry (see `putRules`). That matters for skip rules,
 * which only skip what follows them: the migration puts them first.
 * Without a `managed_rules` section the entry point is left alone.
 */
import { managedEntrypointRules, type DesiredManagedEntry, type DesiredManagedOverrides, type DesiredManagedRuleset, type DesiredZone } from '../../manifest/index.js';
import { liveExpressionText, type Canonicalizer } from '../canonical.js';
import { changedAttributes, noOpChange, type AttributeValue, type Attributes, type Change } from '../change.js';
import { describeEntrypointRule, isUnmanagedEntrypointRule } from './entrypoint-rules.js';
import { isExecuteRule, type EntrypointRule, type ExecuteEntrypointRule, type ManagedOverrides } from './live.js';
import { type LiveZone } from '../live.js';
import type { UnmanagedObject } from '../plan.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import { idleExceptions } from './idle-exceptions.js';
import { adoptsSkipRule, desiredExceptionAttributes, exceptionRule, liveExceptionAttributes } from './exceptions.js';

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
export function comparableOverrides(o: ManagedOverrides | DesiredManagedOverrides | undefined): Attributes | null {
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

/** A live rule's attributes; a skip rule (an exception) in the exceptions' form. */
function liveAttributes(r: EntrypointRule, canon: Canonicalizer, desired?: string): Attributes {
  if (!isExecuteRule(r)) return liveExceptionAttributes(r, canon, desired);
  const common = { enabled: r.enabled, expression: liveExpressionText(canon, r.expression, desired), description: r.description ?? '' };
  return { ruleset: r.action_parameters.id, ...common, overrides: comparableOverrides(r.action_parameters.overrides), ref: r.ref ?? '' };
}

/** The change kind of a live rule: exceptions (skip rules) and deployments are two kinds of object. */
function kindOf(r: EntrypointRule): 'managed_ruleset' | 'managed_exception' {
  return isExecuteRule(r) ? 'managed_ruleset' : 'managed_exception';
}

/** A desired entry's ref, expression, change kind and attributes. */
function entryInfo(w: DesiredManagedEntry) {
  return w.kind === 'execute'
    ? { ref: w.ruleset.ref, expression: w.ruleset.expression, kind: 'managed_ruleset' as const, after: desiredAttributes(w.ruleset) }
    : { ref: w.exception.ref, expression: w.exception.expression, kind: 'managed_exception' as const, after: desiredExceptionAttributes(w.exception) };
}

/** The rule a desired entry becomes in the PUT body. */
function entryRule(w: DesiredManagedEntry, liveId: string | undefined): EntrypointRule {
  return w.kind === 'execute' ? executeRule(w.ruleset, liveId) : exceptionRule(w.exception, liveId);
}

function desiredAttributes(d: DesiredManagedRuleset): Attributes {
  return {
    ruleset: d.rulesetId,
    enabled: d.enabled,
    expression: d.expression,
    description: d.description,
    overrides: comparableOverrides(d.overrides),
    ref: d.ref,
  };
}

/** The entry point rule that deploys a desired ruleset (with the live rule's id when it replaces one). */
export function executeRule(d: DesiredManagedRuleset, liveId: string | undefined): ExecuteEntrypointRule {
  const overrides = comparableOverrides(d.overrides) as ManagedOverrides | null;
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

/**
 * Matches desired entries to live rules of the same kind: by ref first (rules zonewall wrote), then
 * an unmatched deployment adopts a live execute of the same ruleset, and an unmatched exception a
 * live skip rule it describes (`adoptsSkipRule`).
 */
function matchEntries(desired: readonly DesiredManagedEntry[], live: readonly EntrypointRule[], canon: Canonicalizer): Map<DesiredManagedEntry, number> {
  const out = new Map<DesiredManagedEntry, number>();
  const claimed = new Set<number>();
  const sameKind = (d: DesiredManagedEntry, r: EntrypointRule) => (d.kind === 'execute') === isExecuteRule(r);
  for (const d of desired) {
    const ref = d.kind === 'execute' ? d.ruleset.ref : d.exception.ref;
    const i = live.findIndex((r, j) => !claimed.has(j) && sameKind(d, r) && r.ref === ref && !isUnmanagedEntrypointRule(r));
    if (i >= 0) { out.set(d, i); claimed.add(i); }
  }
  for (const d of desired) {
    if (out.has(d)) continue;
    const i = live.findIndex((r, j) => !claimed.has(j) && (d.kind === 'execute'
      ? isExecuteRule(r) && r.action_parameters.id === d.ruleset.rulesetId
      : !isExecuteRule(r) && isUnmanagedEntrypointRule(r) && adoptsSkipRule(d.exception, r, canon)));
    if (i >= 0) { out.set(d, i); claimed.add(i); }
  }
  return out;
}

/** Changes of the desired rulesets: create, update (attributes, ref, position) or no-op. */
function diffWanted(wanted: readonly DesiredManagedEntry[], liveRules: readonly EntrypointRule[], matched: Map<DesiredManagedEntry, number>, canon: Canonicalizer): Change[] {
  // Relative order of the matched rules, live and desired, so inserts do not count as moves.
  const liveRank = new Map([...matched.values()].sort((a, b) => a - b).map((i, rank) => [i, rank + 1]));
  const changes: Change[] = [];
  let desiredRank = 0;
  for (const d of wanted) {
    const { ref, expression, kind, after } = entryInfo(d);
    const i = matched.get(d);
    if (i === undefined) {
      changes.push({ kind, action: 'create', reason: 'new', ref, before: null, after, changed: Object.keys(after), writes: [] });
      continue;
    }
    const l = liveRules[i]!;
    const before = liveAttributes(l, canon, expression);
    desiredRank += 1;
    before.position = liveRank.get(i)!;
    after.position = desiredRank;
    const changed = changedAttributes(before, after);
    if (changed.length === 0) {
      changes.push(noOpChange(kind, ref, l.id));
      continue;
    }
    const reason = changed.includes('ref') ? 'renamed' : changed.every((n) => n === 'position') ? 'reordered' : 'changed';
    changes.push({ kind, action: 'update', reason, ref, ...(l.id !== undefined ? { id: l.id } : {}), before, after, changed, writes: [] });
  }
  return changes;
}

/** Live rules no desired ruleset matched: deleted when zonewall wrote them (or pruned), else kept. */
function diffLeftover(liveRules: readonly EntrypointRule[], claimed: Set<number>, canon: Canonicalizer, prune: boolean) {
  const changes: Change[] = [];
  const unmanaged: UnmanagedObject[] = [];
  const kept = new Set<number>();
  liveRules.forEach((l, i) => {
    if (claimed.has(i)) return;
    const own = !isUnmanagedEntrypointRule(l);
    if (!own && !prune) {
      kept.add(i);
      unmanaged.push({ kind: kindOf(l), id: l.id ?? '', summary: describeEntrypointRule(l) });
      return;
    }
    const before = liveAttributes(l, canon);
    changes.push({ kind: kindOf(l), action: 'delete', reason: own ? 'not-in-manifest' : 'prune', ref: own ? l.ref! : '',
      ...(l.id !== undefined ? { id: l.id } : {}), before, after: null, changed: Object.keys(before), writes: [] });
  });
  return { changes, unmanaged, kept };
}

/**
 * The rules of the PUT body. Kept live rules stay where they are, relative to each other and to the
 * places of the matched rules; the matched places are filled, in live order, by the desired
 * rulesets that have a live match, in the manifest's order. A new ruleset goes right after the
 * desired ruleset before it (before the first matched one when it leads the list), or, when no
 * desired ruleset has a live match, at the end. So a skip rule that stood before every execute
 * still does, and one between two executes still stands between two places.
 */
function putRules(wanted: readonly DesiredManagedEntry[], liveRules: readonly EntrypointRule[], matched: Map<DesiredManagedEntry, number>, kept: Set<number>): EntrypointRule[] {
  const runs: EntrypointRule[][] = [];
  let leading: EntrypointRule[] = [];
  for (const d of wanted) {
    const i = matched.get(d);
    const rule = entryRule(d, i !== undefined ? liveRules[i]!.id : undefined);
    if (i !== undefined) { runs.push([...leading, rule]); leading = []; } else if (runs.length > 0) runs[runs.length - 1]!.push(rule); else leading.push(rule);
  }
  const places = new Set(matched.values());
  const out: EntrypointRule[] = [];
  let slot = 0;
  liveRules.forEach((l, i) => {
    if (kept.has(i)) out.push(keptRule(l));
    else if (places.has(i)) out.push(...runs[slot++]!);
  });
  // `leading` is non-empty only when nothing matched: every desired ruleset is new.
  return [...out, ...leading];
}

/** Changes of the managed entry point, and the PUT body when anything differs. */
export function diffManaged(desired: DesiredZone, live: LiveZone, canon: Canonicalizer, prune: boolean): ManagedDiff {
  const wanted = managedEntrypointRules(desired);
  if (wanted === undefined) return { changes: [], findings: [], unmanaged: [], rules: null };
  const liveRules = live.entrypoint?.rules ?? [];
  const findings = liveRules.flatMap((r) => {
    const c = canon(r.expression);
    return c.ok ? [] : [finding('unparsable-live-expression',
      `entry point rule ${r.id ?? ''} (ref "${r.ref ?? ''}"): the zone's expression does not parse (${c.reason}); it is treated as different`, { kind: 'managed_ruleset', ref: r.ref ?? '' })];
  });
  const matched = matchEntries(wanted, liveRules, canon);
  const leftover = diffLeftover(liveRules, new Set(matched.values()), canon, prune);
  const changes = [...diffWanted(wanted, liveRules, matched, canon), ...leftover.changes];
  const differs = changes.some((c) => c.action !== 'no-op');
  const rules = differs ? putRules(wanted, liveRules, matched, leftover.kept) : null;
  findings.push(...idleExceptions(rules ?? liveRules));
  return { changes, findings, unmanaged: leftover.unmanaged, rules };
}
