/**
 * The API writes a plan asks for, as data. A change carries the writes that carry it out; `apply`
 * executes them phase by phase and never re-diffs. A write that names an object the same plan
 * creates names it by `ref`, because its id is only known once it exists; apply resolves the ref
 * from the create call's answer. Rules phases are written as a whole (`PhaseWrite`).
 */
import type { MigrationMode, ServedPhase } from '../api/index.js';
import type { PhaseName } from './phase.js';

/**
 * Writes by kind: each kind adds the union of its writes (`declare module` on `WriteRegistry`, in
 * `<kind>/writes.ts`), so this file names none of them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface WriteRegistry {}

/** One API write of a change, of any kind (`op` names it: `<resource>.<operation>`). */
export type Write = WriteRegistry[keyof WriteRegistry];

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

/** A step of the zone's move between WAF generations that a phase PUT also takes (a query parameter of the PUT). */
export type PhaseStep = MigrationMode;

/**
 * The write of one rules phase (a Rulesets API entry point) as a whole: either single-rule calls on
 * the existing entry point (`rules`, one request each, in order), or one PUT of the whole entry
 * point that sends every kept rule with its id (`put`; it also creates the entry point when the
 * zone has none). `phase` is the apply phase it runs in, `ruleset` the Rulesets API phase, `step`
 * the step of the zone's move between WAF generations the PUT also takes, if any.
 */
export type PhaseWrite<R extends PhaseRuleBody = PhaseRuleBody> =
  | { phase: PhaseName; ruleset: ServedPhase; strategy: 'put'; body: PhaseBody<R>; step?: PhaseStep }
  | { phase: PhaseName; ruleset: ServedPhase; strategy: 'rules'; rulesetId: string; ops: PhaseRuleOp<R>[] };
