/**
 * The API writes a plan asks for, as data. A change carries the writes that carry it out; `apply`
 * executes them phase by phase and never re-diffs. A firewall rule that points at a filter created
 * by the same plan names it by `ref`, because the filter's id is only known once it exists; apply
 * resolves the ref from the create call's answer.
 */
import type { CustomRuleBody, FilterBody, FirewallRuleBody, EntrypointBody, PageRuleBody } from './live.js';

/** How a rule write names its filter: by id when it exists, by ref when this plan creates it. */
export type FilterPointer = { id: string } | { ref: string };

/** A firewall rule body whose filter may still be created by the same plan. */
export type FirewallRuleWriteBody = Omit<FirewallRuleBody, 'filter'> & { filter: FilterPointer };

/**
 * One API write. `destroyFirst` rule deletes run before everything else (see `order.ts`);
 * `deleteFilterIfUnused` rule deletes also delete the rule's filter when no other rule uses it (the
 * API's `delete_filter_if_unused`): the filter goes with the rule, even a simplified-flow one.
 */
export type Write =
  | { op: 'filter.create'; body: FilterBody }
  | { op: 'filter.update'; id: string; body: FilterBody }
  | { op: 'filter.delete'; id: string }
  | { op: 'firewall_rule.create'; body: FirewallRuleWriteBody }
  | { op: 'firewall_rule.update'; id: string; body: FirewallRuleWriteBody }
  | { op: 'firewall_rule.delete'; id: string; destroyFirst?: boolean; deleteFilterIfUnused?: boolean }
  | { op: 'waf_package.patch'; packageId: string; body: { sensitivity?: string; action_mode?: string } }
  | { op: 'waf_group.patch'; packageId: string; groupId: string; mode: 'on' | 'off' }
  | { op: 'waf_rule.patch'; packageId: string; ruleId: string; mode: string }
  | { op: 'page_rule.create'; body: PageRuleBody }
  | { op: 'page_rule.update'; id: string; body: PageRuleBody }
  | { op: 'page_rule.delete'; id: string };

/** The one PUT of the `http_request_firewall_managed` entry point a plan may make. */
export interface EntrypointWrite {
  body: EntrypointBody;
  /** Set when the PUT also moves the zone's WAF migration on. */
  wafMigration?: 'validation' | 'pending';
}

/** How a custom rule write names another rule: by id, or by ref when the same apply creates it. */
export type RulePointer = { id: string } | { ref: string };

/** Where a single-rule write puts its rule: first in the list, or right after another rule. */
export type PlannedPosition = { first: true } | { after: RulePointer };

/**
 * One single-rule call of the custom phase: POST (create), PATCH (update: a complete body, a
 * position, or both; a position alone is a pure move) or DELETE.
 */
export type CustomRuleOp =
  | { op: 'create'; ref: string; body: CustomRuleBody; position?: PlannedPosition }
  | { op: 'update'; ref: string; id: string; body?: CustomRuleBody; position?: PlannedPosition }
  | { op: 'delete'; ref: string; id: string };

/**
 * The writes of the `http_request_firewall_custom` phase: either single-rule calls on the existing
 * entry point (`rules`, one request each, in order), or one PUT of the whole entry point that sends
 * every kept rule with its id (`put`; it also creates the entry point when the zone has none).
 */
export type CustomRulesWrite =
  | { strategy: 'rules'; rulesetId: string; ops: CustomRuleOp[] }
  | { strategy: 'put'; body: { description?: string; rules: CustomRuleBody[] } };
