/**
 * The planner's entry point: desired state × live state → Plan. Pure: values in, a Plan out; no
 * provider, no I/O, no clock (terraform `internal/plans`). The firewall side, the custom rules
 * phase, the managed entry point, the previous WAF and the migration are diffed by their own files;
 * this file assembles the plan, orders it, adds the safety findings and the call estimate.
 */
import type { DesiredZone } from '../manifest/index.js';
import { estimateCalls, estimateReads, type CallOptions } from './calls.js';
import { createCanonicalizer } from './canonical.js';
import type { Change } from './change.js';
import { diffCustom } from './custom-rules/diff.js';
import { diffFirewall } from './firewall/diff.js';
import { diffManaged } from './managed-rules/diff.js';
import { diffMigration } from './migration/diff.js';
import { diffPageRules } from './page-rules/diff.js';
import { diffPreviousWaf } from './previous-waf/diff.js';
import type { Finding } from './finding.js';
import { fingerprint } from './fingerprint.js';
import type { LiveZone } from './live.js';
import { orderChanges } from './order.js';
import { summarize, type Plan, type PlanSettings } from './plan.js';
import { SafetyDefaults, safetyFindings } from './safety.js';
import { quotaFindings } from './quota.js';
import { tierFindings } from './tier.js';
import type { EntrypointWrite } from './write.js';

/** Options of a plan. */
export interface PlanOptions extends CallOptions {
  /** Plan the deletion of unmanaged objects (and adoption of same-expression filters). */
  prune?: boolean;
  /** Percentage of managed objects a plan may delete before it needs `--force` (default 30). */
  deleteThreshold?: number;
  /** The threshold applies from this many managed objects on (default 10). */
  minObjects?: number;
}

function entrypointWrite(live: LiveZone, rules: EntrypointWrite['body']['rules'] | null): EntrypointWrite | null {
  if (rules === null) return null;
  const current = live.entrypoint;
  return { body: { name: current?.name ?? 'default', ...(current?.description !== undefined ? { description: current.description } : {}), rules } };
}

/** Expressions of the manifest already in canonical form for the default phase (not managed rulesets'). */
function* desiredCanonical(desired: DesiredZone): Generator<string> {
  for (const f of desired.filters) yield f.expression;
  for (const r of desired.customRules ?? []) yield r.expression;
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
  const canon = createCanonicalizer(desiredCanonical(desired));
  const firewall = diffFirewall(desired, live, canon, settings.prune);
  const custom = diffCustom(desired, live, canon, settings.prune);
  const managed = diffManaged(desired, live, canon, settings.prune);
  const previousWaf = diffPreviousWaf(desired, live);
  const migration = diffMigration(desired, live);
  const pageRules = diffPageRules(desired, live, settings.prune);
  const findings: Finding[] = [...tierFindings(desired, live), ...firewall.findings, ...custom.findings, ...managed.findings, ...previousWaf.findings, ...pageRules.findings, ...migration.findings];
  // The firewall's list is this plan's own (thousands of changes at the quota): the rest join it.
  const all: Change[] = firewall.changes;
  all.push(...custom.changes, ...pageRules.changes, ...previousWaf.changes, ...managed.changes, ...(migration.change ? [migration.change] : []));
  const changes = orderChanges(all);
  // A migration step PUTs what `zonewall migrate --mode` PUTs (migration-body.ts), never the plain diff's body.
  const entrypoint = migration.write !== undefined ? migration.write : entrypointWrite(live, managed.rules);
  findings.push(...quotaFindings(desired, live, changes, custom.write), ...safetyFindings(changes, settings, { desired, live }));
  const plan: Omit<Plan, 'fingerprint'> = {
    zone: { id: live.zone.id, name: live.zone.name, ...(live.zone.plan !== undefined ? { plan: live.zone.plan } : {}) },
    manifest: { file: desired.file, zone: desired.zone },
    changes,
    entrypoint,
    customRules: custom.write,
    unmanaged: [...firewall.unmanaged, ...custom.unmanaged, ...managed.unmanaged, ...pageRules.unmanaged],
    findings,
    calls: { ...estimateCalls(changes, entrypoint, options, custom.write), reads: estimateReads(live) },
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
