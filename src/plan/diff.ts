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
import { diffCustom } from './diff-custom.js';
import { diffFirewall } from './diff-firewall.js';
import { diffManaged } from './diff-managed.js';
import { diffMigration } from './diff-migration.js';
import { diffPreviousWaf } from './diff-previous-waf.js';
import { finding, type Finding } from './finding.js';
import { fingerprint } from './fingerprint.js';
import type { LiveZone } from './live.js';
import { orderChanges } from './order.js';
import { summarize, type Plan, type PlanSettings } from './plan.js';
import { SafetyDefaults, safetyFindings } from './safety.js';
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

function entrypointWrite(
  live: LiveZone,
  rules: EntrypointWrite['body']['rules'] | null,
  wafMigration: 'validation' | 'pending' | undefined,
): EntrypointWrite | null {
  if (rules === null && wafMigration === undefined) return null;
  const current = live.entrypoint;
  // A migration step without rule changes re-sends the entry point as it is.
  const body = {
    name: current?.name ?? 'default',
    ...(current?.description !== undefined ? { description: current.description } : {}),
    rules: rules ?? (current?.rules ?? []).map(({ version: _v, last_updated: _l, ...r }) => r),
  };
  return wafMigration === undefined ? { body } : { body, wafMigration };
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
  const canon = createCanonicalizer();
  const firewall = diffFirewall(desired, live, canon, settings.prune);
  const custom = diffCustom(desired, live, canon, settings.prune);
  const managed = diffManaged(desired, live, canon, settings.prune);
  const previousWaf = diffPreviousWaf(desired, live);
  const migration = diffMigration(desired, live);
  const findings: Finding[] = [...tierFindings(desired, live), ...firewall.findings, ...custom.findings, ...managed.findings, ...previousWaf.findings, ...migration.findings];
  if (migration.wafMigration !== undefined && desired.managedRules === undefined) {
    findings.push(finding('migration-without-rules', `the migration runs with the entry point's current ${live.entrypoint?.rules.length ?? 0} rule(s), as the manifest has no \`managed_rules\`; generate them with \`zonewall migrate\``));
  }
  const all: Change[] = [...firewall.changes, ...custom.changes, ...previousWaf.changes, ...managed.changes, ...(migration.change ? [migration.change] : [])];
  const changes = orderChanges(all);
  const entrypoint = entrypointWrite(live, managed.rules, migration.wafMigration);
  findings.push(...safetyFindings(changes, settings));
  return {
    zone: { id: live.zone.id, name: live.zone.name, ...(live.zone.plan !== undefined ? { plan: live.zone.plan } : {}) },
    manifest: { file: desired.file, zone: desired.zone },
    changes,
    entrypoint,
    customRules: custom.write,
    unmanaged: [...firewall.unmanaged, ...custom.unmanaged, ...managed.unmanaged],
    findings,
    calls: { ...estimateCalls(changes, entrypoint, options, custom.write), reads: estimateReads(live) },
    fingerprint: fingerprint(live),
    settings,
    summary: summarize(changes),
  };
}
