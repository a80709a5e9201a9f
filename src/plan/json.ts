/**
 * The versioned JSON form of plans (`schemas/plan.schema.json` documents it), after Terraform's
 * `command/jsonplan`: snake_case keys, a `format_version`, request bodies in the v4 API's shapes.
 * `zonewall plan --json` prints a `PlanJson`; `plan --out` saves the same document, which
 * `apply FILE` reads back with `planFromJson`. Pure conversions only; reading files is apply's job.
 */
import type { Action } from './action.js';
import type { Attributes, ChangeReason, Change, ResourceKind } from './change.js';
import type { Finding } from './finding.js';
import type { ListsPlan } from './lists/diff.js';
import type { ServedPhase } from '../api/index.js';
import type { LiveSection, PlanTier } from './live.js';
import type { PhaseName } from './phase.js';
import { hasErrors, type Plan, type PlanSummary, type UnmanagedObject } from './plan.js';
import type { PhaseBody, PhaseRuleOp, PhaseStep, PhaseWrite, Write } from './write.js';

/**
 * The format version written; readers accept any `2.x`. 2.0: the writes of whole rules phases are
 * one list, `phase_writes`, instead of two fields of 1.x, one per phase.
 */
export const PlanFormatVersion = '2.0';

/**
 * One write in JSON: the write's fields in snake_case (`package_id`, `destroy_first`, …), its
 * `body` as the API takes it.
 */
export type WriteJson = { op: Write['op'] } & Record<string, unknown>;

/** The write of a whole rules phase in JSON. */
export type PhaseWriteJson =
  | { phase: PhaseName; ruleset: ServedPhase; strategy: 'put'; body: PhaseBody; step?: PhaseStep }
  | { phase: PhaseName; ruleset: ServedPhase; strategy: 'rules'; ruleset_id: string; ops: PhaseRuleOp[] };

/** One change in JSON. */
export interface ChangeJson {
  kind: ResourceKind;
  action: Action;
  reason: ChangeReason;
  ref: string;
  id?: string;
  before: Attributes | null;
  after: Attributes | null;
  changed: string[];
  writes: WriteJson[];
  note?: string;
}

/** The plan of one zone in JSON. */
export interface ZonePlanDocumentJson {
  zone: { id: string; name: string; plan?: PlanTier; waf?: 'previous' | 'new' };
  manifest: { file: string; zone: string };
  fingerprint: string;
  settings: { prune: boolean; delete_threshold: number; min_objects: number; reads?: LiveSection[] };
  summary: PlanSummary;
  changes: ChangeJson[];
  phase_writes: PhaseWriteJson[];
  unmanaged: UnmanagedObject[];
  findings: Finding[];
  calls: {
    requests: number;
    phases: { phase: PhaseName; objects: number; requests: number }[];
    batch_size: number;
    budget: { requests: number; window_seconds: number };
    wait_seconds: number;
    reads?: number;
    preflight?: number;
  };
  applicable: boolean;
  safe: boolean;
}

/** A zone that could not be planned. */
export interface PlanErrorJson {
  file?: string;
  zone?: string;
  code: string;
  message: string;
}

/** The plan document: every zone of one run. */
export interface PlanJson {
  format_version: string;
  kind: 'zonewall.plan';
  zonewall_version?: string;
  /** `target`: `Provider.target` (absent in plans of older versions). */
  provider?: { kind: 'engine' | 'http'; description: string; target?: string };
  zones: ZonePlanDocumentJson[];
  errors: PlanErrorJson[];
  summary: PlanSummary;
  /** The lists plan of the run's account manifest (`plan/lists`), applied before the zones' rules (its deletes after them). */
  lists?: ListsPlan;
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A write's fields renamed one by one (its body, in the API's shape already, as it is). */
function renamed<T>(w: object, name: (k: string) => string): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(w)) out[k === 'body' ? k : name(k)] = v;
  return out as T;
}

function writeToJson(w: Write): WriteJson {
  return renamed<WriteJson>(w, snake);
}

function writeFromJson(w: WriteJson): Write {
  return renamed<Write>(w, camel);
}

function changeToJson(c: Change): ChangeJson {
  return {
    kind: c.kind, action: c.action, reason: c.reason, ref: c.ref, ...(c.id !== undefined ? { id: c.id } : {}),
    before: c.before, after: c.after, changed: c.changed, writes: c.writes.map(writeToJson),
    ...(c.note !== undefined ? { note: c.note } : {}),
  };
}

function changeFromJson(c: ChangeJson): Change {
  return {
    kind: c.kind, action: c.action, reason: c.reason, ref: c.ref, ...(c.id !== undefined ? { id: c.id } : {}),
    before: c.before, after: c.after, changed: c.changed, writes: c.writes.map(writeFromJson),
    ...(c.note !== undefined ? { note: c.note } : {}),
  };
}

function phaseWriteToJson(w: PhaseWrite): PhaseWriteJson {
  const head = { phase: w.phase, ruleset: w.ruleset };
  if (w.strategy === 'rules') return { ...head, strategy: 'rules', ruleset_id: w.rulesetId, ops: w.ops };
  return { ...head, strategy: 'put', body: w.body, ...(w.step !== undefined ? { step: w.step } : {}) };
}

function phaseWriteFromJson(w: PhaseWriteJson): PhaseWrite {
  const head = { phase: w.phase, ruleset: w.ruleset };
  if (w.strategy === 'rules') return { ...head, strategy: 'rules', rulesetId: w.ruleset_id, ops: w.ops };
  return { ...head, strategy: 'put', body: w.body, ...(w.step !== undefined ? { step: w.step } : {}) };
}

/** The JSON form of one zone's plan. */
export function planToJson(plan: Plan): ZonePlanDocumentJson {
  return {
    zone: plan.zone,
    manifest: plan.manifest,
    fingerprint: plan.fingerprint,
    settings: { prune: plan.settings.prune, delete_threshold: plan.settings.deleteThreshold, min_objects: plan.settings.minObjects, ...(plan.settings.reads !== undefined ? { reads: plan.settings.reads } : {}) },
    summary: plan.summary,
    changes: plan.changes.map(changeToJson),
    phase_writes: plan.phaseWrites.map(phaseWriteToJson),
    unmanaged: plan.unmanaged,
    findings: plan.findings,
    calls: {
      requests: plan.calls.requests,
      phases: plan.calls.phases,
      batch_size: plan.calls.batchSize,
      budget: { requests: plan.calls.budget.requests, window_seconds: plan.calls.budget.windowSeconds },
      wait_seconds: plan.calls.waitSeconds,
      ...(plan.calls.reads !== undefined ? { reads: plan.calls.reads } : {}),
      ...(plan.calls.preflight !== undefined ? { preflight: plan.calls.preflight } : {}),
    },
    applicable: !hasErrors(plan),
    safe: !plan.findings.some((f) => f.level === 'danger'),
  };
}

/** A Plan back from its JSON form (the document must already be schema-valid). */
export function planFromJson(json: ZonePlanDocumentJson): Plan {
  return {
    zone: json.zone,
    manifest: json.manifest,
    changes: json.changes.map(changeFromJson),
    phaseWrites: json.phase_writes.map(phaseWriteFromJson),
    unmanaged: json.unmanaged,
    findings: json.findings,
    calls: {
      requests: json.calls.requests,
      phases: json.calls.phases,
      batchSize: json.calls.batch_size,
      budget: { requests: json.calls.budget.requests, windowSeconds: json.calls.budget.window_seconds },
      waitSeconds: json.calls.wait_seconds,
      ...(json.calls.reads !== undefined ? { reads: json.calls.reads } : {}),
      ...(json.calls.preflight !== undefined ? { preflight: json.calls.preflight } : {}),
    },
    fingerprint: json.fingerprint,
    settings: { prune: json.settings.prune, deleteThreshold: json.settings.delete_threshold, minObjects: json.settings.min_objects, ...(json.settings.reads !== undefined ? { reads: json.settings.reads } : {}) },
    summary: json.summary,
  };
}

/** Totals of several plan summaries. */
export function addSummaries(summaries: readonly PlanSummary[]): PlanSummary {
  const total: PlanSummary = { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0 };
  for (const s of summaries) {
    total.add += s.add; total.change += s.change; total.replace += s.replace; total.destroy += s.destroy; total.unchanged += s.unchanged;
  }
  return total;
}

/** The plan document of a run. */
export function planDocument(
  plans: readonly Plan[],
  errors: readonly PlanErrorJson[],
  meta: { zonewallVersion?: string; provider?: PlanJson['provider'] } = {},
): PlanJson {
  return {
    format_version: PlanFormatVersion,
    kind: 'zonewall.plan',
    ...(meta.zonewallVersion !== undefined ? { zonewall_version: meta.zonewallVersion } : {}),
    ...(meta.provider !== undefined ? { provider: meta.provider } : {}),
    zones: plans.map(planToJson),
    errors: [...errors],
    summary: addSummaries(plans.map((p) => p.summary)),
  };
}
