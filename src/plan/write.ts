/**
 * The API writes a plan asks for, as data. A change carries the writes that carry it out; `apply`
 * executes them phase by phase and never re-diffs. A firewall rule that points at a filter created
 * by the same plan names it by `ref`, because the filter's id is only known once it exists; apply
 * resolves the ref from the create call's answer.
 */
import type { ServedPhase } from '../api/index.js';
import type { FilterBody, FirewallRuleBody, PageRuleBody } from './live.js';
import type { PhaseName } from './phase.js';

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

/** How a single-rule write names another rule: by id, or by ref when the same apply creates it. */
export type RulePointer = { id: string } | { ref: string };

/** Where a single-rule write puts its rule: first in the list, or right after another rule. */
export type PlannedPosition = { first: true } | { after: RulePointer };

/** A rule of a rules phase as a write sends it (server-filled fields left out; `id` keeps a rule in a PUT). */
export interface PhaseRuleBody {
  id?: string;
  ref?: string;
  action: string;
  expression: string;
  description?: string;
  enabled: boolean;
  logging?: { enabled: boolean };
  action_parameters?: object;
}

/** The body of a PUT of a phase entry point: its whole rule list. */
export interface PhaseBody<R extends PhaseRuleBody = PhaseRuleBody> {
  name?: string;
  description?: string;
  rules: R[];
}

/**
 * One single-rule call of a rules phase: POST (create), PATCH (update: a complete body, a
 * position, or both; a position alone is a pure move) or DELETE.
 */
export type PhaseRuleOp<R extends PhaseRuleBody = PhaseRuleBody> =
  | { op: 'create'; ref: string; body: R; position?: PlannedPosition }
  | { op: 'update'; ref: string; id: string; body?: R; position?: PlannedPosition }
  | { op: 'delete'; ref: string; id: string };

/**
 * The write of one rules phase (a Rulesets API entry point) as a whole: either single-rule calls on
 * the existing entry point (`rules`, one request each, in order), or one PUT of the whole entry
 * point that sends every kept rule with its id (`put`; it also creates the entry point when the
 * zone has none). `phase` is the apply phase it runs in, `ruleset` the Rulesets API phase.
 */
export type PhaseWrite<R extends PhaseRuleBody = PhaseRuleBody> =
  | { phase: PhaseName; ruleset: ServedPhase; strategy: 'put'; body: PhaseBody<R>; wafMigration?: 'validation' | 'pending' }
  | { phase: PhaseName; ruleset: ServedPhase; strategy: 'rules'; rulesetId: string; ops: PhaseRuleOp<R>[] };
