/**
 * State shared by the firewall diff steps of one plan: the inputs, the matching, and what earlier
 * steps decided that later ones need (where each desired filter will be, which simplified-flow
 * filters force their rule to be recreated). Internal to `plan`.
 */
import type { DesiredFilter, DesiredFirewallRule, DesiredZone } from '../../manifest/index.js';
import { liveExpressionText, type Canonicalizer } from '../canonical.js';
import type { Attributes } from '../change.js';
import type { Finding } from '../finding.js';
import type { LiveFilter, LiveFirewallRule } from './live.js';
import type { LiveZone } from '../live.js';
import type { FirewallMatching } from './match.js';
import type { FilterPointer } from './writes.js';

/** Inputs and intermediate decisions of the firewall diff. */
export interface FirewallContext {
  desired: DesiredZone;
  live: LiveZone;
  canon: Canonicalizer;
  prune: boolean;
  match: FirewallMatching;
  findings: Finding[];
  /** The position of the desired filter with this ref. */
  desiredFilterIndex(ref: string): number | undefined;
  /**
   * Per desired filter (same position), where it will be once the filter phases ran: the id of the
   * live filter it keeps, or null when this plan creates it (rules then name it by ref).
   */
  filterTarget: (string | null)[];
  /** Desired filter refs whose live filter is replaced by a new one. */
  replacedFilters: Set<string>;
  /**
   * Live ids of simplified-flow filters that go away (replaced, or dropped while a rule of theirs
   * stays): their rules are deleted first with `delete_filter_if_unused` and created again.
   */
  recreateWithRule: Set<string>;
  /** Live filter ids whose expression a filter update gives up before the create phase. */
  expressionFreed: Set<string>;
}

/** How a rule write names the desired filter at `index` (see `filterTarget`). */
export function filterPointer(ctx: FirewallContext, index: number): FilterPointer {
  const id = ctx.filterTarget[index];
  return id !== null && id !== undefined ? { id } : { ref: ctx.desired.filters[index]!.ref };
}

/**
 * The compared attributes of a live filter; the expression in canonical form when it parses, and
 * the desired text when it means the same (`desired`, the filter it is compared with).
 */
export function liveFilterAttributes(l: LiveFilter, canon: Canonicalizer, desired?: string): Attributes {
  return { expression: liveExpressionText(canon, l.expression, desired), description: l.description ?? '', paused: l.paused, ref: l.ref ?? '' };
}

/** The compared attributes of a desired filter. */
export function desiredFilterAttributes(d: DesiredFilter): Attributes {
  return { expression: d.expression, description: d.description, paused: d.paused, ref: d.ref };
}

/** How a rule's filter is shown: its ref, else its id (`deleted` when the filter is gone). */
export function filterLabel(ctx: FirewallContext, filter: LiveFirewallRule['filter']): string {
  if ('deleted' in filter) return `(deleted filter ${filter.id})`;
  const l = ctx.match.liveFilter(filter.id) ?? filter;
  return l.ref !== undefined && l.ref !== '' ? l.ref : filter.id;
}

/** The compared attributes of a live rule. */
export function liveRuleAttributes(ctx: FirewallContext, l: LiveFirewallRule): Attributes {
  return {
    action: l.action,
    priority: l.priority,
    paused: l.paused,
    description: l.description ?? '',
    products: [...(l.products ?? [])].sort(),
    filter: filterLabel(ctx, l.filter),
    ref: l.ref ?? '',
  };
}

/** The compared attributes of a desired rule. */
export function desiredRuleAttributes(d: DesiredFirewallRule): Attributes {
  return {
    action: d.action,
    priority: d.priority,
    paused: d.paused,
    description: d.description,
    products: [...d.products].sort(),
    filter: d.filterRef,
    ref: d.ref,
  };
}
