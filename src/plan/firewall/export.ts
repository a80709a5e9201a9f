/**
 * Export of filters and firewall rules: which live objects can be written in a manifest, their keys,
 * which filters are written inline under their rule, the rules' priorities, and the writes that
 * adopt them (give each live object its key as `ref`).
 *
 * Inline vs shared: a filter used by exactly one exported rule is written inline under it when it
 * has no ref of its own (or that ref is the rule's key, or not a valid key): its ref becomes the
 * rule's key. A simplified-flow (locked) filter is always inline when it has one rule: the service
 * refuses to PUT it, so its ref cannot be set, and the planner matches an inline filter that no ref
 * matches to the live filter its rule uses (`match.ts`, `matchInlineByRule`). Every other
 * filter goes to `filters:` and keeps its ref when that is a valid, free key.
 *
 * Priorities: rules are written in evaluation order (`compareFirewallRules`: priority, `null` last,
 * the service's action order, then ref, here the key each rule is given); `priority` is left out only where key order gives the same number (previous + 1,
 * first = 1) and no other rule has that number, since the manifest refuses an implicit priority
 * that another rule also has.
 *
 * Contract with the planner (coordinated with `match.ts`): a simplified-flow filter cannot
 * be PUT, so it never gets a ref. Export writes it inline under its one rule; the planner matches an
 * inline filter that no ref matches to the live filter its rule uses, and ignores `ref` when
 * comparing a locked filter. A locked filter held by several rules is inline under the first; the
 * others are reported and left out (a manifest cannot share an inline filter).
 */
import { putInOrder } from '../export-order.js';
import type { FirewallRule, Filter, InlineFilter } from '../../manifest/index.js';
import type { Canonicalizer } from '../canonical.js';
import { KeyAllocator, freshKey, isValidKey } from '../export-keys.js';
import type { KeySource } from '../export-keys.js';
import type { ExportedObject, SkippedObject } from '../export-types.js';
import { compareFirewallRules } from '../../api/index.js';
import type { FilterBody, FirewallRuleBody, LiveFilter, LiveFirewallRule } from './live.js';
import type { LiveZone } from '../live.js';

/** The firewall part of an export. */
export interface FirewallExport {
  filters: Record<string, Filter>;
  rules: Record<string, FirewallRule>;
  objects: ExportedObject[];
  skipped: SkippedObject[];
  filterKeys: Map<string, string>;
  ruleKeys: Map<string, string>;
  adoptFilters: (FilterBody & { id: string })[];
  adoptRules: (FirewallRuleBody & { id: string })[];
}

const MaxPriority = 2_147_483_647;

/** Evaluation order: the one comparator of `src/api` (priority, `null` last, action precedence, ref, id). */
function evaluationOrder(a: LiveFirewallRule, b: LiveFirewallRule): number {
  return compareFirewallRules(a, b);
}

/** Every live filter by id: the list first, then filters only seen inside rules. */
function filtersById(live: LiveZone): Map<string, LiveFilter> {
  const byId = new Map(live.filters.map((f) => [f.id, f]));
  for (const r of live.firewallRules) if (!('deleted' in r.filter) && !byId.has(r.filter.id)) byId.set(r.filter.id, r.filter);
  return byId;
}

/** Why a rule cannot be written in a manifest; undefined when it can. */
function ruleProblem(r: LiveFirewallRule, filters: Map<string, LiveFilter>, canon: Canonicalizer): string | undefined {
  if ('deleted' in r.filter) return `its filter ${r.filter.id} was deleted; a manifest rule needs a filter`;
  const f = filters.get(r.filter.id);
  if (f === undefined) return `its filter ${r.filter.id} is not in the zone`;
  const c = canon(f.expression);
  if (!c.ok) return `its filter's expression does not parse (${c.reason})`;
  if (r.priority !== null && !(Number.isInteger(r.priority) && r.priority >= 1 && r.priority <= MaxPriority)) {
    return `priority ${r.priority} cannot be written in a manifest (an integer from 1 to ${MaxPriority}, or null)`;
  }
  if (r.action === 'bypass' && (r.products ?? []).length === 0) return 'a bypass rule without products cannot be written in a manifest';
  return undefined;
}

/** Rules that can be exported, in evaluation order; the others are reported. */
function exportableRules(live: LiveZone, filters: Map<string, LiveFilter>, canon: Canonicalizer, skipped: SkippedObject[]): LiveFirewallRule[] {
  const out: LiveFirewallRule[] = [];
  const lockedOwner = new Map<string, LiveFirewallRule>();
  for (const r of [...live.firewallRules].sort(evaluationOrder)) {
    const problem = ruleProblem(r, filters, canon);
    if (problem !== undefined) {
      skipped.push({ kind: 'firewall_rule', id: r.id, ref: r.ref, reason: problem });
      continue;
    }
    const f = filters.get(r.filter.id)!;
    // A locked filter without a usable ref can only be matched through one rule (inline).
    if (f.locked === true && !isValidKey(f.ref)) {
      const owner = lockedOwner.get(f.id);
      if (owner !== undefined) {
        skipped.push({ kind: 'firewall_rule', id: r.id, ref: r.ref, reason: `it shares simplified-flow filter ${f.id} with rule ${owner.id}; that filter cannot be given a ref, so only one rule can hold it (inline)` });
        continue;
      }
      lockedOwner.set(f.id, r);
    }
    out.push(r);
  }
  return out;
}

/** Rule keys: valid, unique refs are kept; the rest get fresh keys. */
function assignRuleKeys(rules: LiveFirewallRule[]): Map<string, { key: string; from: KeySource }> {
  const keys = new KeyAllocator();
  const out = new Map<string, { key: string; from: KeySource }>();
  for (const r of rules) if (isValidKey(r.ref) && keys.claim(r.ref)) out.set(r.id, { key: r.ref, from: 'ref' });
  for (const r of rules) if (!out.has(r.id)) out.set(r.id, freshKey(keys, 'rule', r.id, r.description));
  return out;
}

/** The rule that holds each inline filter (filter id → rule). */
function inlineFilters(rules: LiveFirewallRule[], filters: Map<string, LiveFilter>, ruleKeys: Map<string, { key: string }>): Map<string, LiveFirewallRule> {
  const users = new Map<string, LiveFirewallRule[]>();
  for (const r of rules) users.set(r.filter.id, [...(users.get(r.filter.id) ?? []), r]);
  const out = new Map<string, LiveFirewallRule>();
  for (const [id, list] of users) {
    const f = filters.get(id)!;
    if (list.length !== 1) continue;
    const key = ruleKeys.get(list[0].id)!.key;
    if (f.locked === true || !isValidKey(f.ref) || f.ref === key) out.set(id, list[0]);
  }
  return out;
}

/** The manifest form of a filter. */
function filterEntry(f: LiveFilter): Filter & InlineFilter {
  const entry: Filter = { expression: f.expression };
  if (f.description) entry.description = f.description;
  if (f.paused) entry.paused = true;
  return entry;
}

/** Keys of the shared filters (`filters:`); inline filters' refs (their rules' keys) are taken first. */
function sharedFilterKeys(shared: LiveFilter[], inlineKeys: string[], skipped: SkippedObject[]): Map<string, { key: string; from: KeySource }> {
  const keys = new KeyAllocator();
  for (const k of inlineKeys) keys.claim(k);
  const out = new Map<string, { key: string; from: KeySource }>();
  for (const f of shared) if (isValidKey(f.ref) && keys.claim(f.ref)) out.set(f.id, { key: f.ref, from: 'ref' });
  for (const f of shared) {
    if (out.has(f.id)) continue;
    if (f.locked === true) {
      skipped.push({ kind: 'filter', id: f.id, ref: f.ref, reason: 'a simplified-flow filter that no exported rule holds cannot be given a ref' });
      continue;
    }
    out.set(f.id, freshKey(keys, 'filter', f.id, f.description));
  }
  return out;
}

/** Exports the firewall side of a zone. */
export function exportFirewall(live: LiveZone, canon: Canonicalizer): FirewallExport {
  const out: FirewallExport = { filters: {}, rules: {}, objects: [], skipped: [], filterKeys: new Map(), ruleKeys: new Map(), adoptFilters: [], adoptRules: [] };
  const filters = filtersById(live);
  const rules = exportableRules(live, filters, canon, out.skipped);
  const ruleKeys = assignRuleKeys(rules);
  // Written in the order the manifest is evaluated: ties broken by the keys the rules are given (their refs once adopted).
  rules.sort((a, b) => compareFirewallRules({ ...a, ref: ruleKeys.get(a.id)!.key }, { ...b, ref: ruleKeys.get(b.id)!.key }));
  const inline = inlineFilters(rules, filters, ruleKeys);
  const usedOrder = [...new Set(rules.map((r) => r.filter.id))];
  const unused = [...filters.values()].filter((f) => !usedOrder.includes(f.id)).sort((a, b) => a.id.localeCompare(b.id));
  const shared: LiveFilter[] = [];
  for (const f of [...usedOrder.map((id) => filters.get(id)!), ...unused]) {
    if (inline.has(f.id)) continue;
    const c = canon(f.expression);
    if (!c.ok) out.skipped.push({ kind: 'filter', id: f.id, ref: f.ref, reason: `its expression does not parse (${c.reason})` });
    else shared.push(f);
  }
  const filterKeys = sharedFilterKeys(shared, [...inline.values()].map((r) => ruleKeys.get(r.id)!.key), out.skipped);
  for (const f of shared) {
    const k = filterKeys.get(f.id);
    if (k === undefined) continue;
    putInOrder(out.filters, k.key, filterEntry(f));
    noteFilter(out, f, k.key, k.from, false);
  }
  writeRules(out, rules, ruleKeys, inline, filters, filterKeys);
  return out;
}

function noteFilter(out: FirewallExport, f: LiveFilter, key: string, from: KeySource | 'rule', inline: boolean): void {
  out.filterKeys.set(f.id, key);
  const refChange = f.locked !== true && (f.ref ?? '') !== key;
  out.objects.push({ kind: 'filter', id: f.id, key, from, refChange, inline, ...(f.locked === true ? { locked: true } : {}) });
  if (refChange) out.adoptFilters.push(adoptionFilterBody(f, key));
}

/** The PUT body that gives a live filter its key as ref and changes nothing else. */
export function adoptionFilterBody(f: LiveFilter, ref: string): FilterBody & { id: string } {
  const body: FilterBody & { id: string } = { id: f.id, expression: f.expression, paused: f.paused, ref };
  if (f.description) body.description = f.description;
  return body;
}

function writeRules(
  out: FirewallExport,
  rules: LiveFirewallRule[],
  ruleKeys: Map<string, { key: string; from: KeySource }>,
  inline: Map<string, LiveFirewallRule>,
  filters: Map<string, LiveFilter>,
  filterKeys: Map<string, { key: string }>,
): void {
  const holders = new Map<number, number>();
  for (const r of rules) if (r.priority !== null) holders.set(r.priority, (holders.get(r.priority) ?? 0) + 1);
  let previous: number | null = 0;
  for (const r of rules) {
    const { key, from } = ruleKeys.get(r.id)!;
    const f = filters.get(r.filter.id)!;
    const isInline = inline.get(f.id) === r;
    if (!isInline && !filterKeys.has(f.id)) {
      out.skipped.push({ kind: 'firewall_rule', id: r.id, ref: r.ref, reason: `its filter ${f.id} could not be exported` });
      continue;
    }
    const entry: FirewallRule = { action: r.action, filter: isInline ? filterEntry(f) : filterKeys.get(f.id)!.key };
    const implicit = r.priority !== null && previous !== null && r.priority === previous + 1 && holders.get(r.priority) === 1;
    if (!implicit) entry.priority = r.priority;
    if (r.priority !== null) previous = r.priority;
    else previous = null;
    if (r.description) entry.description = r.description;
    if (r.paused) entry.paused = true;
    if (r.action === 'bypass') entry.products = [...(r.products ?? [])] as FirewallRule['products'];
    putInOrder(out.rules, key, entry);
    if (isInline) noteFilter(out, f, key, 'rule', true);
    out.ruleKeys.set(r.id, key);
    const refChange = (r.ref ?? '') !== key;
    out.objects.push({ kind: 'firewall_rule', id: r.id, key, from, refChange, inline: false });
    if (refChange) out.adoptRules.push(adoptionRuleBody(r, key));
  }
}

/** The PUT body that gives a live rule its key as ref and changes nothing else. */
export function adoptionRuleBody(r: LiveFirewallRule, ref: string): FirewallRuleBody & { id: string } {
  const body: FirewallRuleBody & { id: string } = { id: r.id, action: r.action, priority: r.priority, paused: r.paused, ref, filter: { id: r.filter.id } };
  if (r.description) body.description = r.description;
  if (r.products !== undefined && r.products.length > 0) body.products = [...r.products];
  return body;
}
