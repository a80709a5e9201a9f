/**
 * What `plan` and `apply` share: their plan options (`--prune`, `--delete-threshold`, output and
 * color flags) and planning a set of manifests against a provider, zone by zone with bounded
 * concurrency: resolve the zone (a zone the embedded engine lacks reads as new, created at the
 * first write), optionally lock it,
 * read it once, and diff. Each zone's failure is kept with the zone, so one bad zone does not hide
 * the others' plans. Wiring only: the decisions are in `plan` and `apply`.
 */
import type { Command } from 'commander';
import { zoneLocksDir, lockKey, acquireZoneLock, preflightFindings, type PreflightPrepare, type ZoneLock } from '../../apply/index.js';
import { ZonewallError } from '../../errors.js';
import { compareIssues, duplicateZoneIssue, expandPaths, loadManifestFile, wafGenerationOf, type DesiredZone, type ManifestIssue } from '../../manifest/index.js';
import { diffZone, locateObject, readsFor, SafetyDefaults, type LiveZoneInfo, type Plan, type PlanOptions } from '../../plan/index.js';
import { mapLimit, type Provider } from '../../providers/index.js';
import { afterZone } from '../heap.js';
import { providerFlags } from '../provider-options.js';
import { StorageAccessError } from '../../storage/index.js';

/** Options common to `plan` and `apply`. */
export interface PlanFlags {
  json?: boolean;
  markdown?: boolean;
  prune?: boolean;
  deleteThreshold?: string;
  /** `--no-color` sets it false. */
  color?: boolean;
  /** `--preflight` / `--no-preflight`; unset: on for the embedded engine, off for a remote API. */
  preflight?: boolean;
}

/** How many zones are planned at once. */
export const ZoneConcurrency = 4;

/** Adds the plan options to a command; `json` says what its `--json` prints (commands print different documents). */
export function addPlanFlags(cmd: Command, json: string): Command {
  return cmd
    .option('--prune', 'also plan the deletion of unmanaged objects (no ref), and adopt same-expression filters')
    .option('--delete-threshold <pct>', `a danger finding (apply refuses it without --force) for plans deleting more than this percentage of managed objects (default ${SafetyDefaults.deleteThreshold}; applies from ${SafetyDefaults.minObjects} objects)`)
    .option('--json', json)
    .option('--no-color', 'never color the output (colors are used only on a terminal, and never with NO_COLOR set)')
    .option('--preflight', 'run every planned write through the service\'s validation first (on a remote API: dry_run=true on the Rulesets writes, one request each; the embedded engine always does unless --no-preflight)')
    .option('--no-preflight', 'skip the pre-flight');
}

/** Whether the run pre-flights its plans: `--preflight` / `--no-preflight`, else on for the embedded engine only. */
export function preflightOn(flags: PlanFlags, provider: Provider): boolean {
  return (flags.preflight ?? provider.kind === 'engine') && provider.validator !== undefined;
}

/** The planner's options from the flags and the provider's rate budget. */
export function planOptions(flags: PlanFlags, provider: Provider): PlanOptions {
  const out: PlanOptions = { prune: flags.prune === true, providerFlags: providerFlags(flags as Readonly<Record<string, unknown>>) };
  if (flags.deleteThreshold !== undefined) {
    const pct = Number(flags.deleteThreshold);
    if (!Number.isFinite(pct) || pct < 0 || pct > 100) {
      throw new ZonewallError('ERR_USAGE', `--delete-threshold must be a percentage from 0 to 100, got ${flags.deleteThreshold}`);
    }
    out.deleteThreshold = pct;
  }
  if (provider.rateLimit !== undefined) {
    out.budgetRequests = provider.rateLimit.requests;
    out.budgetWindowSeconds = provider.rateLimit.seconds;
  }
  return out;
}

/** One zone of a run: its manifest, and its plan or the error that stopped it. */
export interface ZoneRun {
  desired: DesiredZone;
  zone?: LiveZoneInfo;
  /** True when the embedded engine does not have the zone yet (it reads as new; apply's first write creates it). */
  missing?: boolean;
  plan?: Plan;
  error?: Error;
  lock?: ZoneLock;
  /** Manifest issues found once the zone was known (its `$name`s against its account's lists): the zone is not planned. */
  issues?: ManifestIssue[];
}

/**
 * Checks a zone's `$name`s once the zone (and so its account) is known: `plan` checks them against
 * the run's account manifest, else the zone's live account (`listsCheck`). Issues stop the zone's plan.
 */
export type ListsCheck = (desired: DesiredZone, zone: LiveZoneInfo) => Promise<ManifestIssue[]>;

/** What a run's closing lines need of a zone once its plan is printed (see `streamPlans`). */
export interface RunOutline {
  desired: Pick<DesiredZone, 'zone'>;
  plan?: Pick<Plan, 'summary' | 'calls' | 'findings'>;
  error?: Error;
}

/** The outline of a zone's run: what is kept of it after it is printed. */
export function outline(run: ZoneRun): RunOutline {
  const out: RunOutline = { desired: { zone: run.desired.zone } };
  if (run.plan !== undefined) {
    const { summary, calls, findings } = run.plan;
    // Copies: a finding's message may hold text cut from its manifest, which would keep the whole manifest alive to the end of the run.
    out.plan = { summary, calls, findings: findings.length === 0 ? findings : structuredClone(findings) };
  }
  if (run.error !== undefined) out.error = run.error;
  return out;
}

/** Locking of zones during a run (apply only). */
export interface RunLocking {
  stateDir: string | undefined;
  timeoutMs: number;
}

/** Resolves a zone and checks its `$name`s (a failure stays with the zone). */
async function resolveOne(provider: Provider, desired: DesiredZone, check?: ListsCheck): Promise<ZoneRun> {
  const run: ZoneRun = { desired };
  try {
    // Always ask for creation: on the embedded engine a missing zone reads as new (its first write
    // creates it), and the HTTP provider refuses with a message that says remote APIs never create
    // zones (create it there first).
    // Created in the WAF generation the manifest means (the new WAF unless it names the previous one).
    const { zone, missing } = await provider.resolveZone(desired.zone, { create: { plan: desired.plan ?? 'enterprise', waf: wafGenerationOf(desired) } });
    run.zone = zone;
    run.missing = missing;
    if (check !== undefined && (desired.listReferences?.length ?? 0) > 0) {
      const issues = await check(desired, zone);
      if (issues.length > 0) run.issues = issues;
    }
  } catch (err) {
    run.error = err instanceof Error ? err : new Error(String(err));
  }
  return run;
}

/** Whether a resolved zone goes on to be locked and read. */
function goesOn(run: ZoneRun): run is ZoneRun & { zone: LiveZoneInfo } {
  return run.zone !== undefined && run.error === undefined && run.issues === undefined;
}

/**
 * Takes the locks of the run's zones one at a time, in the order of their lock keys: two applies
 * over the same zones take them in the same order, so neither holds a zone while it waits for one
 * the other holds (each would wait out its --lock-timeout and fail). After a zone it could not
 * lock, it takes no more: the apply is refused anyway.
 */
async function lockInOrder(provider: Provider, runs: readonly ZoneRun[], locking: RunLocking): Promise<void> {
  const keyed = runs.filter(goesOn).map((run) => ({ run, key: lockKey(provider, run.zone.id) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const { run, key } of keyed) {
    try {
      run.lock = await acquireZoneLock({ dir: zoneLocksDir(provider, locking.stateDir), key, zone: run.zone.name, timeoutMs: locking.timeoutMs });
    } catch (err) {
      run.error = err instanceof Error ? err : new Error(String(err));
      return;
    }
  }
}

/** Reads a resolved zone and diffs it (a failure stays with the zone). */
async function planOne(provider: Provider, run: ZoneRun, options: PlanOptions, preflight = false, prepare?: PreflightPrepare): Promise<ZoneRun> {
  if (!goesOn(run)) {
    if (run.issues === undefined) afterZone();
    return run;
  }
  const { desired, zone } = run;
  try {
    run.plan = diffZone(desired, await provider.readZone(zone.id, readsFor(desired)), options);
    // A saved plan of a zone not there yet creates it on the generation the manifest means.
    if (run.missing === true) run.plan.zone = { ...run.plan.zone, waf: wafGenerationOf(desired) };
    if (preflight) {
      const before = provider.stats.requests;
      run.plan.findings.push(...(await preflightFindings(run.plan, provider, (kind, ref) => locateObject(desired, ref, kind), prepare)));
      // A remote pre-flight costs one request per Rulesets write: shown in the estimate.
      if (provider.kind === 'http') run.plan.calls.preflight = provider.stats.requests - before;
    }
  } catch (err) {
    run.error = err instanceof Error ? err : new Error(String(err));
  }
  afterZone();
  return run;
}

/** Plans every zone; with `locking`, the zones' locks are taken (in key order, see `lockInOrder`) before any is read, and kept; `prepare` readies each pre-flight's validator (the run's list writes). */
export async function planZones(provider: Provider, zones: readonly DesiredZone[], options: PlanOptions, locking?: RunLocking, preflight = false, prepare?: PreflightPrepare, check?: ListsCheck): Promise<ZoneRun[]> {
  const byName = new Map<string, string>();
  for (const d of zones) {
    const other = byName.get(d.zone.toLowerCase());
    if (other !== undefined) throw new ZonewallError('ERR_USAGE', `zone ${d.zone} is configured by both ${other} and ${d.file}; one manifest per zone`);
    byName.set(d.zone.toLowerCase(), d.file);
  }
  await provider.preloadZones?.(zones.map((d) => d.zone));
  const runs = await mapLimit(zones, ZoneConcurrency, (d) => resolveOne(provider, d, check));
  if (locking !== undefined) await lockInOrder(provider, runs, locking);
  await mapLimit(runs, ZoneConcurrency, (run) => planOne(provider, run, options, preflight, prepare));
  // A state directory this user may not use is the run's error, not a zone's: one line, nothing applied.
  const denied = runs.find((r) => r.error instanceof StorageAccessError);
  if (denied !== undefined) {
    releaseLocks(runs);
    throw denied.error;
  }
  const seen = new Map<string, string>();
  for (const run of runs) claimZoneId(seen, run);
  return runs;
}

/** The same zone by name in one manifest and by id in another: an error of the later run. */
function claimZoneId(seen: Map<string, string>, run: ZoneRun): void {
  if (run.zone === undefined) return;
  const other = seen.get(run.zone.id);
  if (other !== undefined && run.error === undefined) {
    run.error = new ZonewallError('ERR_USAGE', `zone ${run.zone.name} is configured by both ${other} and ${run.desired.file}; one manifest per zone`);
    run.plan = undefined;
  }
  seen.set(run.zone.id, run.desired.file);
}

/** Releases the locks a run holds. */
export function releaseLocks(runs: readonly ZoneRun[]): void {
  for (const run of runs) run.lock?.release();
}

/** What `streamPlans` calls back. */
export interface PlanStream {
  /** Opens the provider; called once, at the first valid manifest (none: nothing is opened). */
  open(): Promise<Provider>;
  /** The planner's options for the opened provider. */
  options(provider: Provider): PlanOptions;
  /** Each manifest issue, file by file in order (a file's issues sorted). */
  issue(issue: ManifestIssue): void;
  /** Each zone's run, in file order, as soon as it and the zones before it are planned. */
  zone(run: ZoneRun): void;
  /** Whether plans are pre-flighted (`preflightOn`), for the opened provider. */
  preflight?(provider: Provider): boolean;
  /** Readies each pre-flight's validator (the run's list writes, `listsPreflight`). */
  prepare?: PreflightPrepare;
  /** Checks each zone's `$name`s; its issues are reported as the zone's manifest issues. */
  lists?: ListsCheck;
  /** Files already read and found valid by the caller that hold no zone (the run's account manifest). */
  skip?: ReadonlySet<string>;
}

/**
 * Loads and plans manifests file by file: at most `ZoneConcurrency` zones are in flight, and each
 * run is handed to `stream.zone` in file order, then dropped, so a run over many zones holds a few
 * manifests and plans at a time, not all of them. Loads in file order, so a zone configured twice
 * is reported at its second file, as `loadManifests` does; the same zone by name and by id is an
 * error of the later run, as in `planZones`. The zones list is preloaded once (`preloadZones`)
 * for as many zones as there are files, the names being known only as each file is read.
 * Returns every manifest issue (sorted) and whether a provider was opened.
 */
export async function streamPlans(paths: readonly string[], stream: PlanStream): Promise<{ issues: ManifestIssue[]; provider?: Provider }> {
  const { files, issues } = await expandPaths(paths);
  for (const issue of issues.sort(compareIssues)) stream.issue(issue);
  const owner = new Map<string, string>();
  const seenIds = new Map<string, string>();
  const queue: Promise<ZoneRun>[] = [];
  let provider: Provider | undefined;
  let options: PlanOptions = {};
  let preflight = false;
  const emitHead = async () => {
    const run = await queue.shift()!;
    // A state directory this user may not read is the run's error, not a zone's (one line).
    if (run.error instanceof StorageAccessError) throw run.error;
    if (run.issues !== undefined) {
      const found = run.issues.sort(compareIssues);
      for (const issue of found) stream.issue(issue);
      issues.push(...found);
      return;
    }
    claimZoneId(seenIds, run);
    stream.zone(run);
  };
  for (const [i, file] of files.entries()) {
    if (stream.skip?.has(file) === true) continue;
    const result = await loadManifestFile(file);
    const fileIssues = [...result.issues];
    const zone = result.zone;
    const first = zone === undefined ? undefined : owner.get(zone.zone.toLowerCase());
    if (zone !== undefined && first !== undefined) fileIssues.push(duplicateZoneIssue(zone, first));
    // Issues of a file are reported when the zones before it are printed, so output stays in file order.
    while (queue.length > 0 && fileIssues.length > 0) await emitHead();
    for (const issue of fileIssues.sort(compareIssues)) stream.issue(issue);
    issues.push(...fileIssues);
    if (zone === undefined || first !== undefined) continue;
    owner.set(zone.zone.toLowerCase(), file);
    if (provider === undefined) {
      provider = await stream.open();
      options = stream.options(provider);
      preflight = stream.preflight?.(provider) ?? false;
      await provider.preloadZones?.([zone.zone], files.length - i);
    }
    const [p, o, f] = [provider, options, preflight];
    queue.push(resolveOne(p, zone, stream.lists).then((run) => planOne(p, run, o, f, stream.prepare)));
    // The embedded engine works in this thread: zones in flight would only hold more memory at once.
    while (queue.length >= (provider.kind === 'engine' ? 1 : ZoneConcurrency)) await emitHead();
  }
  while (queue.length > 0) await emitHead();
  return provider === undefined ? { issues: issues.sort(compareIssues) } : { issues: issues.sort(compareIssues), provider };
}
