/**
 * The planner's entry point: desired state × live state → Plan. Pure: values in, a Plan out; no
 * provider, no I/O, no clock (terraform `internal/plans`). Each kind diffs its own sections
 * (`PlanKind.diff`, in the order of the registration list); this file assembles the plan, orders
 * it, adds the tier, quota and safety findings and the call estimate.
 */
import { checkedKeyOf, type DesiredZone } from '../manifest/index.js';
import { estimateCalls, estimateReads, type CallOptions } from './calls.js';
import { createCanonicalizer } from './canonical.js';
import type { Change } from './change.js';
import type { Finding } from './finding.js';
import { fingerprint } from './fingerprint.js';
import { PhaseNames, PlanKinds } from './kinds.js';
import type { LiveZone } from './live.js';
import { orderChanges } from './order.js';
import type { PhaseName } from './phase.js';
import { summarize, type Plan, type PlanSettings, type UnmanagedObject } from './plan.js';
import { SafetyDefaults, safetyFindings } from './safety.js';
import { quotaFindings } from './quota.js';
import { tierFindings } from './tier.js';
import type { PhaseWrite } from './write.js';

/** Options of a plan. */
export interface PlanOptions extends CallOptions {
  /** Plan the deletion of unmanaged objects (and adoption of same-expression filters). */
  prune?: boolean;
  /** Percentage of managed objects a plan may delete before it needs `--force` (default 30). */
  deleteThreshold?: number;
  /** The threshold applies from this many managed objects on (default 10). */
  minObjects?: number;
  /**
   * This run's provider flags (` --state-dir DIR`, ` --remote URL`), repeated in the commands its
   * findings suggest (`zonewall migrate zone.yaml --write`): without them a user following one
   * would run it against another provider. Empty (the default) for the default provider.
   */
  providerFlags?: string;
}

/** Expressions of the manifest already in canonical form, as each kind lists them (`PlanKind.canonical`). */
function* desiredCanonical(desired: DesiredZone): Generator<string> {
  for (const kind of PlanKinds) if (kind.canonical !== undefined) yield* kind.canonical(desired);
}

/**
 * Computes the plan of one zone.
 * @example const plan = diffZone(desired, await provider.readZone(zone.id), { prune: false });
 */
export function diffZone(desired: DesiredZone, live: LiveZone, options: PlanOptions = {}): Plan {
  const settings: PlanSettings = {
    prune: options.prune ?? false,
    deleteThreshold: options.deleteThreshold ?? SafetyDefaults.deleteThreshold,
    minObjects: options.minObjects ?? SafetyDefaults.minObjects,
    ...(live.sections !== undefined ? { reads: [...live.sections] } : {}),
  };
  const input = { desired, live, canon: createCanonicalizer(desiredCanonical(desired), checkedKeyOf), prune: settings.prune, providerFlags: options.providerFlags ?? '' };
  const findings: Finding[] = tierFindings(desired, live);
  const unmanaged: UnmanagedObject[] = [];
  const writes = new Map<PhaseName, PhaseWrite>();
  let all: Change[] | undefined;
  for (const kind of PlanKinds) {
    const d = kind.diff(input);
    // The first kind's list is this plan's own (thousands of changes at the quota): the rest join it.
    if (all === undefined) all = d.changes;
    else if (d.changes.length > 0) all.push(...d.changes);
    if (d.findings.length > 0) findings.push(...d.findings);
    if (d.unmanaged !== undefined && d.unmanaged.length > 0) unmanaged.push(...d.unmanaged);
    // A later kind's write of the same phase replaces an earlier one's (`KindDiff.phaseWrite`).
    if (d.phaseWrite !== undefined) writes.set(d.phaseWrite.phase, d.phaseWrite);
  }
  const changes = orderChanges(all ?? []);
  const phaseWrites = PhaseNames.flatMap((p) => writes.get(p) ?? []);
  findings.push(...quotaFindings(desired, live, changes, phaseWrites), ...safetyFindings(changes, settings, { desired, live }));
  const plan: Omit<Plan, 'fingerprint'> = {
    zone: { id: live.zone.id, name: live.zone.name, ...(live.zone.plan !== undefined ? { plan: live.zone.plan } : {}) },
    manifest: { file: desired.file, zone: desired.zone },
    changes,
    phaseWrites,
    unmanaged,
    findings,
    calls: { ...estimateCalls(changes, phaseWrites, options), reads: estimateReads(live) },
    settings,
    summary: summarize(changes),
  };
  return withLazyFingerprint(plan, live);
}

/**
 * The plan with its `fingerprint`, hashed at the first read and kept: a plan printed as text never
 * reads it, and hashing 2,000 objects is a tenth of such a plan's time. It reads as a plain field
 * (enumerable: spreads, `JSON.stringify` and `structuredClone` see it); `live` is never changed
 * after it is read, so the hash is what it would have been at once.
 */
function withLazyFingerprint(plan: Omit<Plan, 'fingerprint'>, live: LiveZone): Plan {
  let hash: string | undefined;
  return Object.defineProperty(plan, 'fingerprint', {
    enumerable: true,
    configurable: true,
    get: () => (hash ??= fingerprint(live)),
    set: (value: string) => { hash = value; },
  }) as Plan;
}
