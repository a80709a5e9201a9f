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
 *
 * Results are kept by position (desired refs are unique: they are the manifest's keys), and the
 * indexes a no-op plan does not need (live rules by ref while the zone lists them in the manifest's
 * order, live filters by id, desired rules by filter) are built only when a step asks for them: at
 * the enterprise quota each is a map of a thousand entries per zone.
 */
import type { DesiredFilter, DesiredFirewallRule } from '../../manifest/index.js';
import { desiredKey, type Canonicalizer } from '../canonical.js';
import type { LiveFilter, LiveFirewallRule } from './live.js';

/** How a desired object found its live object. */
export type MatchVia = 'ref' | 'renamed' | 'rule' | 'adopted';

/** The result of matching the firewall side of a zone. */
export interface FirewallMatching {
  /** Per desired rule (same position): its live rule. */
  rules: (LiveFirewallRule | undefined)[];
  /** Per desired filter (same position): its live filter, and how it was found (`filterVia`). */
  filters: (LiveFilter | undefined)[];
  filterVia: (MatchVia | undefined)[];
  /** Per live rule (position in the zone's list): 1 when a desired rule claimed it. */
  claimedRules: Uint8Array;
  /** Every live filter: the filters list, then filters only seen embedded in rules. */
  liveFilters: readonly LiveFilter[];
  /** Per live filter (position in `liveFilters`): 1 when a desired filter claimed it. */
  claimedFilters: Uint8Array;
  /** A live filter by id. */
  liveFilter(id: string): LiveFilter | undefined;
  /**
   * The position of the desired filter that claimed the live filter with this id, found through
   * the live filters holding `ref` (an embedded filter's ref); -1 when not found that way.
   */
  claimantOf(id: string, ref: string | undefined): number;
}

/** Positions of items by ref (items without a ref are left out); a list only for a ref two items share. */
type RefIndex = Map<string, number | number[]>;

function addRef(index: RefIndex, ref: string | undefined, i: number): void {
  if (ref === undefined || ref === '') return;
  const held = index.get(ref);
  if (held === undefined) index.set(ref, i);
  else if (typeof held === 'number') index.set(ref, [held, i]);
  else held.push(i);
}

/** The first position not yet claimed (-1: none), preferring those `rank` ranks lower. */
function pick(held: number | number[] | undefined, claimed: Uint8Array, rank?: (i: number) => number): number {
  if (held === undefined) return -1;
  if (typeof held === 'number') return claimed[held] === 1 ? -1 : held;
  const free = held.filter((i) => claimed[i] === 0);
  if (rank === undefined || free.length < 2) return free[0] ?? -1;
  return [...free].sort((a, b) => rank(a) - rank(b))[0]!;
}

function matchRules(desired: readonly DesiredFirewallRule[], live: readonly LiveFirewallRule[]) {
  const rules = new Array<LiveFirewallRule | undefined>(desired.length).fill(undefined);
  const claimed = new Uint8Array(live.length);
  // A zone zonewall applied lists its rules in the manifest's order: while the refs agree, each
  // desired rule's first unclaimed live rule with its ref is the one at its own position.
  let k = 0;
  while (k < desired.length && k < live.length && desired[k]!.ref !== '' && live[k]!.ref === desired[k]!.ref) {
    rules[k] = live[k];
    claimed[k] = 1;
    k++;
  }
  if (k === desired.length) return { rules, claimed };
  const byRef: RefIndex = new Map();
  for (let j = k; j < live.length; j++) addRef(byRef, live[j]!.ref, j);
  const claim = (i: number, j: number) => { rules[i] = live[j]; claimed[j] = 1; };
  for (let i = k; i < desired.length; i++) {
    const j = pick(byRef.get(desired[i]!.ref), claimed);
    if (j >= 0) claim(i, j);
  }
  desired.forEach((d, i) => {
    if (rules[i] !== undefined || d.renamedFrom === undefined) return;
    const j = pick(byRef.get(d.renamedFrom), claimed);
    if (j >= 0) claim(i, j);
  });
  return { rules, claimed };
}

/**
 * Every live filter (the list, then filters only seen embedded in rules, once each) and their
 * positions by ref. An embedded filter is known to be in the list when the list holds its id under
 * its ref (the common case: no lookup by id); only otherwise is it looked up by id, in `ids`.
 */
function indexLiveFilters(list: readonly LiveFilter[], rules: readonly LiveFirewallRule[], ids: LazyIds) {
  const byRef: RefIndex = new Map();
  list.forEach((f, i) => addRef(byRef, f.ref, i));
  let all: LiveFilter[] | undefined;
  rules.forEach((r) => {
    const f = r.filter;
    if ('deleted' in f) return;
    const held = f.ref === undefined ? undefined : byRef.get(f.ref);
    if (held !== undefined && holdsId(held, all ?? list, f.id)) return;
    const byId = ids.get(all ?? list);
    if (byId.has(f.id)) return;
    all ??= [...list];
    byId.set(f.id, all.length);
    addRef(byRef, f.ref, all.length);
    all.push(f);
  });
  return { all: all ?? list, byRef };
}

function holdsId(held: number | number[], items: readonly LiveFilter[], id: string): boolean {
  return typeof held === 'number' ? items[held]!.id === id : held.some((i) => items[i]!.id === id);
}

/** Positions of live filters by id, made at the first lookup (a no-op plan makes none). */
class LazyIds {
  #byId: Map<string, number> | undefined;
  /** The index; `items` are the live filters known when it is first asked for. */
  get(items: readonly LiveFilter[]): Map<string, number> {
    if (this.#byId === undefined) {
      this.#byId = new Map();
      items.forEach((f, i) => this.#byId!.set(f.id, i));
    }
    return this.#byId;
  }
}

/** Matching of the filters: results by desired position, claims by live position. */
interface FilterClaims {
  filters: (LiveFilter | undefined)[];
  via: (MatchVia | undefined)[];
  claimed: Uint8Array;
  /** Per live filter: the position of the desired filter that claimed it, -1 for none. */
  claimant: Int32Array;
  all: readonly LiveFilter[];
  /** Desired filters not matched yet. */
  left: number;
}

function claimFilter(m: FilterClaims, i: number, j: number, via: MatchVia): void {
  m.filters[i] = m.all[j];
  m.via[i] = via;
  m.claimed[j] = 1;
  m.claimant[j] = i;
  m.left--;
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
  const ids = new LazyIds();
  const { all, byRef } = indexLiveFilters(liveFilterList, liveRules, ids);
  const n = desiredFilters.length;
  const m: FilterClaims = {
    filters: new Array<LiveFilter | undefined>(n).fill(undefined),
    via: new Array<MatchVia | undefined>(n).fill(undefined),
    claimed: new Uint8Array(all.length),
    claimant: new Int32Array(all.length).fill(-1),
    all,
    left: n,
  };
  // Among live filters sharing a ref, prefer the one the desired filter's rules already use, then a
  // PUT-able one. Computed only when there is a tie (rare), so large plans pay nothing for it.
  const usedBy = (ref: string) => new Set(desiredRules.flatMap((r, i) => (r.filterRef === ref && rules[i] !== undefined ? [rules[i].filter.id] : [])));
  const prefer = (d: DesiredFilter) => {
    let used: Set<string> | undefined;
    return (j: number) => ((used ??= usedBy(d.ref)).has(all[j]!.id) ? 0 : all[j]!.locked === true ? 2 : 1);
  };
  const pickFor = (d: DesiredFilter, held: number | number[] | undefined) => pick(held, m.claimed, Array.isArray(held) ? prefer(d) : undefined);
  desiredFilters.forEach((d, i) => {
    const j = pickFor(d, byRef.get(d.ref));
    if (j >= 0) claimFilter(m, i, j, 'ref');
  });
  if (m.left > 0) {
    desiredFilters.forEach((d, i) => {
      if (m.filters[i] !== undefined || d.renamedFrom === undefined) return;
      const j = pickFor(d, byRef.get(d.renamedFrom));
      if (j >= 0) claimFilter(m, i, j, 'renamed');
    });
  }
  if (m.left > 0) matchInlineByRule(m, desiredFilters, desiredRules, rules, ids);
  const byExpression = [orphanLocked(liveRules), rekeyManaged, ...(prune ? [adoptUnmanaged] : [])];
  for (const rule of byExpression) if (m.left > 0) matchByExpression(m, rule, desiredFilters, canon);
  const liveFilter = (id: string) => {
    const j = ids.get(all).get(id);
    return j === undefined ? undefined : all[j];
  };
  const claimantOf = (id: string, ref: string | undefined) => {
    const held = ref === undefined ? undefined : byRef.get(ref);
    if (held === undefined) return -1;
    const j = typeof held === 'number' ? held : held.find((k) => all[k]!.id === id) ?? -1;
    return j >= 0 && all[j]!.id === id ? m.claimant[j]! : -1;
  };
  return { rules, filters: m.filters, filterVia: m.via, claimedRules, liveFilters: all, claimedFilters: m.claimed, liveFilter, claimantOf };
}

/** Inline filters that no ref matched: the live filter their rule's live match uses. */
function matchInlineByRule(
  m: FilterClaims,
  desiredFilters: readonly DesiredFilter[],
  desiredRules: readonly DesiredFirewallRule[],
  rules: readonly (LiveFirewallRule | undefined)[],
  ids: LazyIds,
): void {
  let ruleByFilterRef: Map<string, number> | undefined;
  desiredFilters.forEach((d, i) => {
    if (!d.inline || m.filters[i] !== undefined) return;
    if (ruleByFilterRef === undefined) {
      ruleByFilterRef = new Map();
      for (let k = 0; k < desiredRules.length; k++) if (!ruleByFilterRef.has(desiredRules[k]!.filterRef)) ruleByFilterRef.set(desiredRules[k]!.filterRef, k);
    }
    const owner = ruleByFilterRef.get(d.ref);
    const liveRule = owner === undefined ? undefined : rules[owner];
    if (liveRule === undefined || 'deleted' in liveRule.filter) return;
    const j = ids.get(m.all).get(liveRule.filter.id);
    if (j === undefined || m.claimed[j] === 1) return;
    claimFilter(m, i, j, 'rule');
  });
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
function matchByExpression(m: FilterClaims, rule: ExpressionMatch, desiredFilters: readonly DesiredFilter[], canon: Canonicalizer): void {
  const byExpression = new Map<string, number>();
  m.all.forEach((l, j) => {
    if (m.claimed[j] === 1 || !rule.live(l)) return;
    const c = canon(l.expression);
    if (c.ok && !byExpression.has(c.key)) byExpression.set(c.key, j);
  });
  if (byExpression.size === 0) return;
  desiredFilters.forEach((d, i) => {
    if (m.filters[i] !== undefined || !rule.desired(d)) return;
    const j = byExpression.get(desiredKey(canon, d.expression));
    if (j === undefined || m.claimed[j] === 1) return;
    claimFilter(m, i, j, rule.via);
  });
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
  let used: Set<string> | undefined;
  return { live: (l) => l.locked === true && !(used ??= new Set(liveRules.map((r) => r.filter.id))).has(l.id), desired: (d) => d.inline, via: 'adopted' };
}

/**
 * An unclaimed managed (ref set), PUT-able live filter with a desired filter's expression is an
 * implicit rename: the plan would otherwise create a duplicate of a filter it deletes later, which
 * the service refuses. Keeping the live filter also keeps its id.
 */
const rekeyManaged: ExpressionMatch = { live: (l) => (l.ref ?? '') !== '' && l.locked !== true, desired: () => true, via: 'renamed' };

/** `--prune`: unmatched desired filters adopt an unmanaged, PUT-able live filter with their expression. */
const adoptUnmanaged: ExpressionMatch = { live: (l) => (l.ref ?? '') === '' && l.locked !== true, desired: () => true, via: 'adopted' };
