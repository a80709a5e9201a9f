/**
 * The writes of filters and firewall rules. A firewall rule that points at a filter created by the
 * same plan names it by `ref`, because the filter's id is only known once it exists; apply
 * resolves the ref from the create call's answer.
 */
import type { FilterBody, FirewallRuleBody } from './live.js';

/** How a rule write names its filter: by id when it exists, by ref when this plan creates it. */
export type FilterPointer = { id: string } | { ref: string };

/** A firewall rule body whose filter may still be created by the same plan. */
export type FirewallRuleWriteBody = Omit<FirewallRuleBody, 'filter'> & { filter: FilterPointer };

/**
 * One filter or firewall rule write. `destroyFirst` rule deletes run before everything else;
 * `deleteFilterIfUnused` rule deletes also delete the rule's filter when no other rule uses it (the
 * API's `delete_filter_if_unused`): the filter goes with the rule, even a simplified-flow one.
 */
export type FirewallWrite =
  | { op: 'filter.create'; body: FilterBody }
  | { op: 'filter.update'; id: string; body: FilterBody }
  | { op: 'filter.delete'; id: string }
  | { op: 'firewall_rule.create'; body: FirewallRuleWriteBody }
  | { op: 'firewall_rule.update'; id: string; body: FirewallRuleWriteBody }
  | { op: 'firewall_rule.delete'; id: string; destroyFirst?: boolean; deleteFilterIfUnused?: boolean };

declare module '../write.js' {
  interface WriteRegistry {
    firewall: FirewallWrite;
  }
}
