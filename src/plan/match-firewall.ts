/**
 * Identity of filters and firewall rules: which live object each manifest object is. Objects are
 * matched by `ref`; a `renamed_from` matches the old ref (the object is kept and renamed). An inline
 * filter that no ref matches is the live filter its rule's live match currently uses (this is how
 * simplified-flow filters, which cannot be given a ref, stay matched; `export` relies on it). With
 * `--prune`, a filter still unmatched adopts an unmanaged live filter with the same expression,
 * which the service would otherwise refuse as a duplicate. Before that, a filter still unmatched
 * takes over a managed live filter with its expression that nothing else claims (an inline filter
 * turned into a shared key, a key renamed without `renamed_from`): that filter would be deleted by
 * this plan anyway, and creating the new one first would be refused as a duplicate.
 */
import type { DesiredFilter, DesiredFirewallRule } from '../manifest/index.js';
import { desiredKey, type Canonicalizer } from './canonical.js';
import type { LiveFilter, LiveFirewallRule } from './live.js';

/** How a desired object found its live object. */
export type MatchVia = 'ref' | 'renamed' | 'rule' | 'adopted';

/** A desired object's live object. */
export interface Matched<L> {
  live: L;
  via: MatchVia;
}

/** The result of matching the firewall side of a zone. */
export interface FirewallMatching {
  /** Desired rule ref to its live rule. */
  rules: Map<string, Matched<LiveFirewallRule>>;
  /** Desired filter ref to its live filter. */
  filters: Map<string, Matched<LiveFilter>>;
  /** Live ids claimed by a desired object. */
  claimedRules: Set<string>;
  claimedFilters: Set<string>;
  /** Every live filter by id: the filters list plus filters only seen embedded in rules. */
  liveFilters: Map<string, LiveFilter>;
}

/** Live filters by id, the list first, then filters only seen inside rules. */
export function indexLiveFilters(filters: readonly LiveFilter[], rules: readonly LiveFirewallRule[]): Map<string, LiveFilter> {
  const byId = new Map<string, LiveFilter>();
  for (const f of filters) byId.set(f.id, f);
  for (const r of rules) {
    const f = r.filter;
    if (!('deleted' in f) && !byId.has(f.id)) byId.set(f.id, f);
  }
  return byId;
}

/**
 * Live objects by ref (objects without a ref are left out). Almost every ref is held by one
 * object, so a list is only made for the rare ref that two objects share.
 */
function groupByRef<T extends { ref?: string }>(items: Iterable<T>): Map<string, T | T[]> {
  const out = new Map<string, T | T[]>();
  for (const item of items) {
    if (item.ref === undefined || item.ref === '') continue;
    const held = out.get(item.ref);
    if (held === undefined) out.set(item.ref, item);
    else if (Array.isArray(held)) held.push(item);
    else out.set(item.ref, [held, item]);
  }
  return out;
}

/** The first candidate not yet claimed, preferring those `prefer` ranks lower. */
function pick<T extends { id: string }>(held: T | T[] | undefined, claimed: Set<string>, prefer?: (t: T) => number): T | undefined {
  if (held === undefined) return undefined;
  if (!Array.isArray(held)) return claimed.has(held.id) ? undefined : held;
  const candidates = held;
  const free = candidates.filter((c) => !claimed.has(c.id));
  if (prefer === undefined || free.length < 2) return free[0];
  return [...free].sort((a, b) => prefer(a) - prefer(b))[0];
}

function matchRules(desired: readonly DesiredFirewallRule[], live: readonly LiveFirewallRule[]) {
  const byRef = groupByRef(live);
  const rules = new Map<string, Matched<LiveFirewallRule>>();
  const claimed = new Set<string>();
  const claim = (d: DesiredFirewallRule, l: LiveFirewallRule, via: MatchVia) => { rules.set(d.ref, { live: l, via }); claimed.add(l.id); };
  for (const d of desired) {
    const l = pick(byRef.get(d.ref), claimed);
    if (l !== undefined) claim(d, l, 'ref');
  }
  for (const d of desired) {
    if (rules.has(d.ref) || d.renamedFrom === undefined) continue;
    const l = pick(byRef.get(d.renamedFrom), claimed);
    if (l !== undefined) claim(d, l, 'renamed');
  }
  return { rules, claimed };
}

/**
 * Matches desired filters and rules to live ones.
 * @example matchFirewall(desired.filters, desired.firewallRules, live.filters, live.firewallRules, canon, false)
 */
export function matchFirewall(
  desiredFilters: readonly DesiredFilter[],
  desiredRules: readonly DesiredFirewallRule[],
  liveFilterList: readonly LiveFilter[],
  liveRules: readonly LiveFirewallRule[],
  canon: Canonicalizer,
  prune: boolean,
): FirewallMatching {
  const { rules, claimed: claimedRules } = matchRules(desiredRules, liveRules);
  const liveFilters = indexLiveFilters(liveFilterList, liveRules);
  const filters = new Map<string, Matched<LiveFilter>>();
  const claimedFilters = new Set<string>();
  const claim = (d: DesiredFilter, l: LiveFilter, via: MatchVia) => { filters.set(d.ref, { live: l, via }); claimedFilters.add(l.id); };
  const byRef = groupByRef(liveFilters.values());
  // Among live filters sharing a ref, prefer the one the desired filter's rules already use, then a
  // PUT-able one. Computed only when there is a tie (rare), so large plans pay nothing for it.
  const usedBy = (ref: string) => new Set(desiredRules.flatMap((r) => (r.filterRef === ref && rules.has(r.ref) ? [rules.get(r.ref)!.live.filter.id] : [])));
  const prefer = (d: DesiredFilter) => {
    let used: Set<string> | undefined;
    return (l: LiveFilter) => ((used ??= usedBy(d.ref)).has(l.id) ? 0 : l.locked === true ? 2 : 1);
  };
  for (const d of desiredFilters) {
    const l = pick(byRef.get(d.ref), claimedFilters, prefer(d));
    if (l !== undefined) claim(d, l, 'ref');
  }
  for (const d of desiredFilters) {
    if (filters.has(d.ref) || d.renamedFrom === undefined) continue;
    const l = pick(byRef.get(d.renamedFrom), claimedFilters, prefer(d));
    if (l !== undefined) claim(d, l, 'renamed');
  }
  matchInlineByRule(desiredFilters, desiredRules, rules, liveFilters, filters, claimedFilters);
  const byExpression = [orphanLocked(liveRules), rekeyManaged, ...(prune ? [adoptUnmanaged] : [])];
  for (const rule of byExpression) matchByExpression(rule, desiredFilters, liveFilters, filters, claimedFilters, canon);
  return { rules, filters, claimedRules, claimedFilters, liveFilters };
}

/** Inline filters that no ref matched: the live filter their rule's live match uses. */
function matchInlineByRule(
  desiredFilters: readonly DesiredFilter[],
  desiredRules: readonly DesiredFirewallRule[],
  rules: Map<string, Matched<LiveFirewallRule>>,
  liveFilters: Map<string, LiveFilter>,
  filters: Map<string, Matched<LiveFilter>>,
  claimed: Set<string>,
): void {
  const ruleByFilterRef = new Map<string, DesiredFirewallRule>();
  for (const r of desiredRules) if (!ruleByFilterRef.has(r.filterRef)) ruleByFilterRef.set(r.filterRef, r);
  for (const d of desiredFilters) {
    if (!d.inline || filters.has(d.ref)) continue;
    const owner = ruleByFilterRef.get(d.ref);
    const liveRule = owner === undefined ? undefined : rules.get(owner.ref)?.live;
    if (liveRule === undefined || 'deleted' in liveRule.filter) continue;
    const l = liveFilters.get(liveRule.filter.id);
    if (l === undefined || claimed.has(l.id)) continue;
    filters.set(d.ref, { live: l, via: 'rule' });
    claimed.add(l.id);
  }
}

/** Where `matchByExpression` looks: which live filters it may take, which desired ones may take them. */
interface ExpressionMatch {
  live: (l: LiveFilter) => boolean;
  desired: (d: DesiredFilter) => boolean;
  via: MatchVia;
}

/**
 * Unmatched desired filters take an unclaimed live filter with their expression (canonical form),
 * among the live filters `rule.live` admits; the first live filter of each expression wins. The
 * three rules below differ only in which filters qualify.
 */
function matchByExpression(
  rule: ExpressionMatch,
  desiredFilters: readonly DesiredFilter[],
  liveFilters: Map<string, LiveFilter>,
  filters: Map<string, Matched<LiveFilter>>,
  claimed: Set<string>,
  canon: Canonicalizer,
): void {
  const byExpression = new Map<string, LiveFilter>();
  for (const l of liveFilters.values()) {
    if (claimed.has(l.id) || !rule.live(l)) continue;
    const c = canon(l.expression);
    if (c.ok && !byExpression.has(c.key)) byExpression.set(c.key, l);
  }
  if (byExpression.size === 0) return;
  for (const d of desiredFilters) {
    if (filters.has(d.ref) || !rule.desired(d)) continue;
    const l = byExpression.get(desiredKey(canon, d.expression));
    if (l === undefined || claimed.has(l.id)) continue;
    filters.set(d.ref, { live: l, via: rule.via });
    claimed.add(l.id);
  }
}

/**
 * The seed's quota case: the simplified flow created the filter but not its rule. That filter
 * (locked, used by no rule) cannot be PUT or DELETEd, and a new filter with its expression would be
 * refused as a duplicate; the seed's way out is a rule that references the existing filter, so an
 * unmatched inline desired filter with the same expression takes it (ref differences are ignored
 * on locked filters, and once its rule exists it stays matched through the rule). Shared filters
 * cannot: nothing would match them to a filter without a ref on the next plan.
 */
function orphanLocked(liveRules: readonly LiveFirewallRule[]): ExpressionMatch {
  const used = new Set(liveRules.map((r) => r.filter.id));
  return { live: (l) => l.locked === true && !used.has(l.id), desired: (d) => d.inline, via: 'adopted' };
}

/**
 * An unclaimed managed (ref set), PUT-able live filter with a desired filter's expression is an
 * implicit rename: the plan would otherwise create a duplicate of a filter it deletes later, which
 * the service refuses. Keeping the live filter also keeps its id.
 */
const rekeyManaged: ExpressionMatch = { live: (l) => (l.ref ?? '') !== '' && l.locked !== true, desired: () => true, via: 'renamed' };

/** `--prune`: unmatched desired filters adopt an unmanaged, PUT-able live filter with their expression. */
const adoptUnmanaged: ExpressionMatch = { live: (l) => (l.ref ?? '') === '' && l.locked !== true, desired: () => true, via: 'adopted' };
