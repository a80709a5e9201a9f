/**
 * The migration sequence of seed 002, driven through a Provider: read the zone, check
 * compatibility, fetch the proposed configuration, report its equivalence with the manifest's
 * `previous_waf`, then (when asked) PUT the entry point with `waf_migration=validation` or
 * `pending`, and rewrite the manifest to what the zone now runs. Without a mode it is a dry run: the
 * same report and the manifest the migration would produce.
 *
 * What is PUT is built by `plan/migration/body.ts`, the same body `zonewall apply` sends when a
 * manifest's `waf_migration` steps forward: the two paths cannot differ.
 * The report always compares the manifest's `previous_waf` with the proposal.
 *
 * Refusals: validation on a zone whose tier is known and not Enterprise; the final `pending` step
 * without `force` (it cannot be undone); an incompatible zone (with its blockers listed).
 */
import { ManagedPhase } from '../api/index.js';
import type { MigrationMode } from '../api/index.js';
import type { DesiredZone } from '../manifest/index.js';
import { migrationBody } from '../plan/index.js';
import type { BodySource, EntrypointBody, LiveEntrypoint, LiveZone, LiveZoneInfo, WafState } from '../plan/index.js';
import type { MigrationCheck, Provider } from '../providers/index.js';
import { MigrationError } from './errors.js';
import { toManifestManagedRules } from './managed-rules.js';
import type { ManagedRuleEntry } from './managed-rules.js';
import { catalogFromLive, mapPreviousWaf, withLiveSettings } from './mapping.js';
import { buildReport } from './report.js';
import type { Blocker, EquivalenceReport } from './report.js';
import { manifestDiff, rewriteManifest } from './rewrite.js';

/** A migration mode: `validation` runs both WAFs (Enterprise), `pending` finishes (the wire contract's `waf_migration`). */
export type { MigrationMode } from '../api/index.js';

/** What `runMigration` needs. */
export interface MigrateInput {
  provider: Provider;
  /** The manifest: its path (for the diff), its text (to rewrite) and what it asks for. */
  manifest: { path: string; text: string; desired: DesiredZone };
  /** Undefined for a dry run. */
  mode?: MigrationMode;
  /** Required for `pending`, the irreversible step. */
  force?: boolean;
  /**
   * Takes the zone's apply lock once the zone is known, so an apply cannot write between the read
   * and the PUT; returns its release. (The CLI passes the apply module's lock.)
   */
  lock?: (zone: LiveZoneInfo) => Promise<() => void>;
  /**
   * The provider flags of this run as typed (e.g. ` --state-dir .zw`), repeated in the commands the
   * refusals suggest so that they reach the same zone; '' when none.
   */
  flags?: string;
}

/** Progress callbacks, so the report is shown before a refusal stops the run. */
export interface MigrateEvents {
  /** The zone is not compatible; `blockers` are its URI-based overrides. */
  blocked?(zone: LiveZoneInfo, reasons: string[], blockers: Blocker[]): void;
  report?(report: EquivalenceReport): void;
  /** Called right before the PUT, with where its rules come from. */
  applying?(mode: MigrationMode, source: BodySource): void;
}

/** What a run did, or (dry run) would do. */
export interface MigrateOutcome {
  zone: LiveZoneInfo;
  before: WafState;
  after: WafState;
  check?: MigrationCheck;
  report?: EquivalenceReport;
  /** The body PUT, or the one a run with `wafMigration` would PUT. */
  body?: EntrypointBody;
  /** Where the body's execute rules came from (see the file comment). */
  bodySource?: BodySource;
  /** The mode applied; undefined for a dry run or a zone that had already migrated. */
  applied?: MigrationMode;
  /** The mode the rewritten manifest records. */
  wafMigration: MigrationMode;
  /** The rewritten manifest text, and its diff against the original ('' when unchanged). */
  text: string;
  diff: string;
}

/** The zone's migration state, derived when the service does not say. */
export function wafStateOf(live: LiveZone): WafState {
  return live.migration?.waf_state ?? (live.previousWaf === null ? 'new_only' : 'previous_only');
}

/** The URI-based overrides of the zone, as blockers. */
function blockersOf(live: LiveZone): Blocker[] {
  return (live.previousWaf?.overrides ?? []).map((o) => ({ id: o.id, urls: o.urls, ...(o.description ? { description: o.description } : {}) }));
}

/** The body to PUT and where it came from: the one body `apply` also sends (`plan/migration/body.ts`). */
function chooseBody(input: MigrateInput, live: LiveZone, before: WafState, proposal: EntrypointBody, mode: MigrationMode): { body: EntrypointBody; source: BodySource } {
  return migrationBody({ managedRules: input.manifest.desired.managedRules, managedExceptions: input.manifest.desired.managedExceptions ?? [], entrypoint: live.entrypoint, proposal, before, mode });
}

/** Refuses what the zone or the flags do not allow; called after the report was shown. */
function refuse(input: MigrateInput, zone: LiveZoneInfo, before: WafState): void {
  const { mode } = input;
  const command = `zonewall migrate ${input.manifest.path}${input.flags ?? ''}`;
  if (mode === 'validation' && zone.plan !== undefined && zone.plan !== 'enterprise') {
    throw new MigrationError(`validation mode (both WAFs side by side) is for Enterprise zones only; ${zone.name} is on the ${zone.plan} plan, where the migration goes straight to the new WAF: review the report, then run ${command} --mode pending --force --write`);
  }
  // A refusal stops before the rewrite, so no diff has been shown: point at the dry run that shows it.
  if (mode === 'pending' && input.force !== true && before !== 'new_only') {
    throw new MigrationError(`--mode pending finishes the migration: the previous WAF of ${zone.name} is switched off and the zone cannot go back. Review the report above and the manifest diff (${command} shows it), then run again with --force`);
  }
}

/** The mode a dry run records: validation first where the tier allows it. */
function suggestedMode(zone: LiveZoneInfo, before: WafState): MigrationMode {
  return before === 'previous_only' && zone.plan === 'enterprise' ? 'validation' : 'pending';
}

/** The rewritten manifest for what the zone runs (or would run). */
function rewrite(input: MigrateInput, managedRules: ManagedRuleEntry[] | undefined, wafMigration: MigrationMode): { text: string; diff: string } {
  const { path, text } = input.manifest;
  const after = rewriteManifest(text, { ...(managedRules !== undefined ? { managedRules } : {}), wafMigration });
  return { text: after, diff: manifestDiff(path, text, after) };
}

/** A zone already on the new WAF only: nothing to PUT; the manifest is brought in line with it. */
function alreadyMigrated(input: MigrateInput, zone: LiveZoneInfo, live: LiveZone, events: MigrateEvents): MigrateOutcome {
  if (input.mode === 'validation') {
    throw new MigrationError(`${zone.name} has already finished its migration to the new WAF; validation mode is only possible before that. Run zonewall migrate ${input.manifest.path}${input.flags ?? ''} --write to bring the manifest in line`);
  }
  const { desired } = input.manifest;
  const rules = live.entrypoint?.rules ?? [];
  let report: EquivalenceReport | undefined;
  if (desired.previousWaf !== undefined) {
    const mapping = mapPreviousWaf(withLiveSettings(desired.previousWaf, null), catalogFromLive(null));
    report = buildReport(zone.name, mapping, { rules }, 'manifest', [], { ownManagedRules: desired.managedRules !== undefined });
    events.report?.(report);
  }
  const { text, diff } = rewrite(input, desired.managedRules !== undefined ? undefined : toManifestManagedRules(rules), 'pending');
  return { zone, before: 'new_only', after: 'new_only', report, wafMigration: 'pending', text, diff };
}

/**
 * Runs the migration sequence (see the file comment).
 *
 * @example
 * const outcome = await runMigration({ provider, manifest: { path, text, desired }, mode: 'validation' });
 * if (outcome.diff) fs.writeFileSync(path, outcome.text);
 */
export async function runMigration(input: MigrateInput, events: MigrateEvents = {}): Promise<MigrateOutcome> {
  const { zone } = await input.provider.resolveZone(input.manifest.desired.zone);
  const release = input.lock === undefined ? undefined : await input.lock(zone);
  try {
    return await migrateZone(input, zone, events);
  } finally {
    release?.();
  }
}

/** The sequence on a resolved (and locked) zone. */
async function migrateZone(input: MigrateInput, zone: LiveZoneInfo, events: MigrateEvents): Promise<MigrateOutcome> {
  const { provider, manifest } = input;
  const live = await provider.readZone(zone.id);
  const before = wafStateOf(live);
  if (before === 'new_only') return alreadyMigrated(input, zone, live, events);
  const check = await provider.checkMigration(zone.id);
  if (!check.compatible) {
    const blockers = blockersOf(live);
    events.blocked?.(zone, check.reasons, blockers);
    // A Free zone has nothing to remove: it never had the previous WAF, so there is nothing to migrate.
    if (zone.plan === 'free' && blockers.length === 0) {
      throw new MigrationError(`${zone.name} is on the free plan, which has no previous WAF to migrate from: deploy managed rulesets with the manifest's managed_rules (zonewall plan / apply) instead of zonewall migrate`);
    }
    throw new MigrationError(`${zone.name} cannot migrate until what blocks it is removed (see above); then run zonewall migrate ${manifest.path}${input.flags ?? ''} again`);
  }
  const proposal = await provider.migrationConfig(zone.id);
  const settings = withLiveSettings(manifest.desired.previousWaf, live.previousWaf);
  const report = buildReport(zone.name, mapPreviousWaf(settings, catalogFromLive(live.previousWaf)), proposal,
    manifest.desired.previousWaf !== undefined ? 'manifest' : 'live', live.pageRules ?? [], { ownManagedRules: manifest.desired.managedRules !== undefined });
  events.report?.(report);
  refuse(input, zone, before);
  const mode = input.mode ?? suggestedMode(zone, before);
  const { body, source } = chooseBody(input, live, before, proposal, mode);
  const own = source === 'manifest';
  if (input.mode === undefined) {
    const { text, diff } = rewrite(input, own ? undefined : toManifestManagedRules(body.rules), mode);
    return { zone, before, after: before, check, report, body, bodySource: source, wafMigration: mode, text, diff };
  }
  events.applying?.(input.mode, source);
  const entrypoint: LiveEntrypoint = await provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, body, { step: input.mode });
  const status = await provider.migrationStatus(zone.id);
  const { text, diff } = rewrite(input, own ? undefined : toManifestManagedRules(entrypoint.rules), input.mode);
  return { zone, before, after: status.waf_state, check, report, body, bodySource: source, applied: input.mode, wafMigration: input.mode, text, diff };
}
