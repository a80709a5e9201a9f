/**
 * `waf_migration`: where the manifest wants the zone on the seed's migration path (`none` = previous
 * WAF only, `validation` = both, `pending` = new WAF only) against the zone's `waf_state`. Moving
 * forward is carried by the entry point PUT (`waf_migration=validation|pending`) with exactly the body
 * `zonewall migrate --mode` sends (`body.ts`: the service's proposal, skip rules included,
 * merged with the manifest's `managed_rules`); when the proposal could not be read, the step is an
 * error that names `zonewall migrate`. Moving back is impossible (the migration is irreversible), so
 * asking for an earlier state is a warning, not a perpetual diff.
 */
import type { DesiredWafMigration, DesiredZone } from '../../manifest/index.js';
import { noOpChange, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import { isExecuteRule } from '../managed-rules/live.js';
import { type LiveZone } from '../live.js';
import { type WafState } from './live.js';
import { migrationBody } from './body.js';
import { ManagedPhase } from '../../api/index.js';
import type { EntrypointWrite } from '../managed-rules/writes.js';

const stateOf: Record<DesiredWafMigration, WafState> = { none: 'previous_only', validation: 'both', pending: 'new_only' };
const rank: Record<WafState, number> = { previous_only: 0, both: 1, new_only: 2 };

/** What the migration diff found. */
export interface MigrationDiff {
  change: Change | null;
  findings: Finding[];
  /** The entry point PUT that moves the migration on (absent when it does not, or cannot). */
  write?: EntrypointWrite;
}

/** The command that takes the step instead, for messages. */
function migrateCommand(desired: DesiredZone, mode: 'validation' | 'pending', flags: string): string {
  return `zonewall migrate ${desired.file}${flags} --mode ${mode}${mode === 'pending' ? ' --force' : ''}`;
}

/** The PUT of a step forward, or the error finding that says why apply cannot take it. */
function stepWrite(desired: DesiredZone, live: LiveZone, from: WafState, mode: 'validation' | 'pending', about: Omit<Finding, 'level' | 'code' | 'message'>, flags: string): { write?: EntrypointWrite; findings: Finding[]; note?: string } {
  const proposal = live.migrationConfig;
  const needsProposal = from !== 'both' || (desired.managedRules === undefined && live.entrypoint === null);
  if (needsProposal && (proposal === undefined || proposal === null)) {
    const why = proposal === null ? 'the service gave no proposed configuration for the zone' : 'the service\'s proposed configuration was not read';
    return { findings: [finding('migration-step-unavailable', `apply cannot take this migration step: ${why}, and the step must carry its skip rules; take it with \`${migrateCommand(desired, mode, flags)}\``, about)] };
  }
  const { body, source } = migrationBody({ managedRules: desired.managedRules, managedExceptions: desired.managedExceptions ?? [], entrypoint: live.entrypoint, proposal: proposal ?? { rules: [] }, before: from, mode });
  const skips = body.rules.filter((r) => !isExecuteRule(r)).length;
  const executes = body.rules.length - skips;
  const from_ = { manifest: 'the manifest\'s managed_rules', live: 'the validated entry point', proposal: 'the service\'s proposed configuration' }[source];
  const note = `the PUT (waf_migration=${mode}) carries ${skips} skip rule(s) and ${executes} managed ruleset deployment(s), from ${from_}; the same body as \`${migrateCommand(desired, mode, '')}\``;
  const findings = source === 'proposal' ? [finding('migration-without-rules',
    `the manifest has no \`managed_rules\`: the step deploys the service's proposed configuration as it is; \`zonewall migrate ${desired.file}${flags} --write\` writes it into the manifest for review`, about)] : [];
  return { write: { phase: 'entrypoint', ruleset: ManagedPhase, strategy: 'put', body, step: mode }, findings, note };
}

/** The migration change of a zone, if the manifest asks for one. */
export function diffMigration(desired: DesiredZone, live: LiveZone, flags = ''): MigrationDiff {
  const want = desired.wafMigration;
  const location = desired.locations.waf_migration;
  const about = { kind: 'waf_migration' as const, ref: 'waf_migration', ...(location ? { location } : {}) };
  if (want === undefined) return { change: null, findings: [] };
  if (live.migration === null) {
    return { change: null, findings: [finding('migration-unavailable', 'the service does not report the zone\'s WAF migration state; `waf_migration` is ignored', about)] };
  }
  const from = live.migration.waf_state;
  const to = stateOf[want];
  const base = { kind: 'waf_migration' as const, ref: 'waf_migration', before: { state: from }, after: { state: to } };
  if (rank[to] === rank[from]) return { change: noOpChange('waf_migration', 'waf_migration', undefined), findings: [] };
  if (rank[to] < rank[from]) {
    return { change: null, findings: [finding('migration-irreversible',
      `the manifest asks for waf_migration "${want}" but the zone is already at "${from}"; the migration cannot go back: set waf_migration to "${from === 'new_only' ? 'pending' : 'validation'}"`, about)] };
  }
  const findings: Finding[] = [];
  // `validation` on a non-Enterprise zone is reported by the manifest's tier check of the migration kind (`manifest/migration/index.ts`).
  const overrides = live.previousWaf?.overrides ?? [];
  if (overrides.length > 0) {
    findings.push(finding('migration-blocked',
      `the zone has ${overrides.length} URI-based WAF override(s) (${overrides.map((o) => o.id).join(', ')}); a zone cannot migrate until they are deleted`, about));
  }
  const mode = want === 'validation' ? 'validation' : 'pending';
  const step = stepWrite(desired, live, from, mode, about, flags);
  findings.push(...step.findings);
  const change: Change = { ...base, action: 'update', reason: 'migration', changed: ['state'], writes: [], ...(step.note !== undefined ? { note: step.note } : {}) };
  return { change, findings, ...(step.write !== undefined ? { write: step.write } : {}) };
}
