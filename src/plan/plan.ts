/**
 * The Plan: everything `apply` and the renderers need about one zone, as plain data. It is computed
 * by the pure `diff` (no I/O, no clock) and never changed afterwards; `json.ts` is its serialised
 * form. After Terraform's `plans.Plan` and octoDNS's `Plan`.
 */
import type { Change, ResourceKind } from './change.js';
import type { Finding } from './finding.js';
import type { LiveSection, PlanTier } from './live.js';
import type { PhaseName } from './phase.js';
import type { PhaseWrite } from './write.js';

/** A live object without a known ref: listed, left alone, deleted only with `--prune`. */
export interface UnmanagedObject {
  kind: ResourceKind;
  id: string;
  /** A one-line summary: the expression, action or ruleset it runs. */
  summary: string;
}

/** API requests of one phase. */
export interface PhaseCalls {
  phase: PhaseName;
  /** Objects written in the phase. */
  objects: number;
  /** Requests: ceil(objects / batch size) for batched writes, one per object for PATCH-only APIs. */
  requests: number;
}

/** How many API requests applying the plan makes and how long the rate budget makes it take. */
export interface CallEstimate {
  requests: number;
  phases: PhaseCalls[];
  /** Objects per batched request. */
  batchSize: number;
  /** The service's budget: `requests` per `windowSeconds`. */
  budget: { requests: number; windowSeconds: number };
  /** Seconds spent waiting for the budget (0 when the requests fit in it). */
  waitSeconds: number;
  /** Requests that read the zone for the plan (an apply re-reads as many); the run's estimate adds them up. */
  reads?: number;
  /** Requests the pre-flight made on a remote API (`--preflight`: one dry run per Rulesets write). */
  preflight?: number;
}

/** Counts of the summary line: `Plan: 2 to add, 1 to change, 0 to replace, 1 to destroy.` */
export interface PlanSummary {
  add: number;
  change: number;
  replace: number;
  destroy: number;
  unchanged: number;
}

/** Options the plan was computed with (recorded so that a saved plan says what it assumed). */
export interface PlanSettings {
  prune: boolean;
  /** Percentage of managed objects a plan may delete once there are `minObjects` of them. */
  deleteThreshold: number;
  minObjects: number;
  /** The optional sections of the zone that were read (`LiveZone.sections`); absent: all. */
  reads?: LiveSection[];
}

/** The plan of one zone. */
export interface Plan {
  /** `waf`: a zone the plan found missing (the embedded engine): the WAF generation apply creates it on (`wafGenerationOf`). */
  zone: { id: string; name: string; plan?: PlanTier; waf?: 'previous' | 'new' };
  /** The manifest it was computed from. */
  manifest: { file: string; zone: string };
  /** Every change, no-ops included, in apply order. */
  changes: Change[];
  /**
   * The writes of whole rules phases (an entry point PUT, or its single-rule calls), in apply order:
   * one per phase with any change; they carry the changes of their phase's kinds.
   */
  phaseWrites: PhaseWrite[];
  unmanaged: UnmanagedObject[];
  findings: Finding[];
  calls: CallEstimate;
  /** Hash of the live state the plan was computed on (`fingerprint.ts`). */
  fingerprint: string;
  settings: PlanSettings;
  summary: PlanSummary;
}

/** The summary counts of a list of changes. */
export function summarize(changes: readonly Change[]): PlanSummary {
  const summary: PlanSummary = { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0 };
  // A switch, not a table: two keyed look-ups per change cost more than the rest, at thousands of no-ops.
  for (let i = 0; i < changes.length; i++) {
    const action = changes[i]!.action;
    switch (action) {
      case 'create': summary.add++; break;
      case 'update': summary.change++; break;
      case 'replace': summary.replace++; break;
      case 'delete': summary.destroy++; break;
      case 'no-op': summary.unchanged++; break;
      default: throw new Error(`summarize: unknown action ${String(action satisfies never)}`);
    }
  }
  return summary;
}

/** The write of one rules phase of a plan, if the plan writes it. */
export function phaseWriteOf(plan: Pick<Plan, 'phaseWrites'>, phase: PhaseName): PhaseWrite | null {
  return plan.phaseWrites.find((w) => w.phase === phase) ?? null;
}

/** True when applying the plan would change anything. */
export function hasChanges(plan: Pick<Plan, 'summary'>): boolean {
  const s = plan.summary;
  return s.add + s.change + s.replace + s.destroy > 0;
}

/** True when a finding makes the plan impossible to apply. */
export function hasErrors(plan: Pick<Plan, 'findings'>): boolean {
  return plan.findings.some((f) => f.level === 'error');
}
