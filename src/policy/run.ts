/**
 * Runs policy tests for manifests: finds each manifest's cases file, loads and checks it against
 * the manifest, evaluates the cases offline (the manifest's zone model) or against the live zone
 * (a provider's trace), and returns one report per manifest plus every problem found on the way.
 * A directory's manifests without a cases file are listed as skipped; a manifest named on its own
 * without one is an error, and so is a run that tests nothing.
 */
import { ZonewallError } from '../errors.js';
import { accountLists, expandPaths, findAccountManifest, loadManifest, noLists, type DesiredAccount, type DesiredZone, type ManifestIssue } from '../manifest/index.js';
import type { Provider } from '../providers/index.js';
import { checkCasesAgainstZone } from './check-refs.js';
import { defaultCasesFiles, findCasesFile, isCasesFile } from './find-cases.js';
import { runAgainstZone } from './live.js';
import { loadCasesFile } from './load.js';
import { listsOf, managedListsNote, managedListsOfZone } from './lists.js';
import { runOffline } from './offline.js';
import type { CaseFile, CaseResult, PolicyReport } from './types.js';
import { buildZoneModel } from './zone-model.js';

/** Options of a run. */
export interface PolicyRunOptions {
  /** One cases file for the (single) manifest, instead of the default places. */
  cases?: string;
  /** Evaluate through this provider's trace (the live zone) instead of offline. */
  againstZone?: Provider;
}

/** What a run found. */
export interface PolicyRunResult {
  reports: PolicyReport[];
  /** Manifest and cases-file problems, each located; a manifest with any is not tested. */
  errors: ManifestIssue[];
  /** Manifests of a directory that have no cases file. */
  skipped: { manifest: string; reason: string }[];
}

const whole = (file: string, message: string): ManifestIssue => ({ file, line: 0, column: 0, path: '', message });

/**
 * Runs the cases of every manifest in `paths` (files or directories of manifests).
 * @example const { reports, errors } = await runPolicyTests(['zones/example.com.yaml'], {});
 */
export async function runPolicyTests(paths: readonly string[], options: PolicyRunOptions = {}): Promise<PolicyRunResult> {
  const out: PolicyRunResult = { reports: [], errors: [], skipped: [] };
  const { files, issues } = await expandPaths(paths);
  out.errors.push(...issues);
  const manifests = files.filter((f) => !isCasesFile(f));
  // The account manifest of the run (or beside a zone manifest named alone): the lists `$name` resolves to.
  const found = await findAccountManifest(manifests);
  if (found !== undefined) out.errors.push(...found.issues);
  const account: DesiredAccount | undefined = found?.account;
  const zoneFiles = manifests.filter((f) => f !== found?.file);
  if (options.cases !== undefined && zoneFiles.length > 1) {
    out.errors.push(whole(options.cases, `--cases gives the cases of one manifest, but ${paths.join(' ')} holds ${zoneFiles.length}: name one manifest, or let each find its own cases file`));
    return out;
  }
  for (const f of files.filter(isCasesFile)) {
    if (paths.includes(f)) out.errors.push(whole(f, 'this is a cases file: give the manifest it tests (its cases are found beside it), or use --cases'));
  }
  for (const file of zoneFiles) {
    const loaded = await loadManifest(file, { lists: account === undefined ? noLists : accountLists(account) });
    out.errors.push(...loaded.issues);
    if (loaded.zone === undefined) continue;
    const casesFile = options.cases ?? (await findCasesFile(file));
    if (casesFile === undefined) {
      const reason = `no cases file (looked for ${defaultCasesFiles(file).filter((_, i) => i % 2 === 0).join(' and ')})`;
      if (paths.includes(file)) out.errors.push(whole(file, `${reason}; write one, or give --cases FILE`));
      else out.skipped.push({ manifest: file, reason });
      continue;
    }
    const cases = await loadChecked(casesFile, loaded.zone, out.errors);
    if (cases === undefined) continue;
    const liveNotes: string[] = [];
    let results: CaseResult[];
    try {
      results = options.againstZone === undefined
        ? runOffline(buildZoneModel(loaded.zone, loaded.zone.listReferences === undefined ? undefined : listsOf(account)), cases.cases)
        : await runAgainstZone(options.againstZone, loaded.zone, cases.cases, { ...(account === undefined ? {} : { account: account.account }), notes: liveNotes });
    } catch (err) {
      // A zone the service does not have (or refuses to show) fails its manifest, as in `plan`, and
      // the run goes on; a state directory this user may not read fails the whole run.
      if (!(err instanceof ZonewallError) || err.code === 'ERR_STATE_ACCESS') throw err;
      out.errors.push(whole(file, err.message));
      continue;
    }
    const report = reportOf(loaded.zone, casesFile, options.againstZone === undefined ? 'offline' : 'against-zone', results);
    const managed = managedListsNote(managedListsOfZone(loaded.zone));
    const notes = [...(options.againstZone === undefined ? offlineNotes(loaded.zone) : []), ...(managed === undefined ? [] : [managed]), ...liveNotes];
    out.reports.push(notes.length > 0 ? { ...report, notes } : report);
  }
  if (out.reports.length === 0 && out.errors.length === 0) {
    out.errors.push(whole(paths.join(' '), 'no manifest here has a cases file, so nothing was tested'));
  }
  return out;
}

async function loadChecked(file: string, desired: DesiredZone, errors: ManifestIssue[]): Promise<CaseFile | undefined> {
  const { cases, issues, partial } = await loadCasesFile(file);
  errors.push(...issues);
  // The cases that did load are checked against the manifest too: one run reports every error.
  if (cases === undefined) {
    if (partial !== undefined) errors.push(...checkCasesAgainstZone(partial, desired));
    return undefined;
  }
  const refIssues = checkCasesAgainstZone(cases, desired);
  errors.push(...refIssues);
  return refIssues.length === 0 ? cases : undefined;
}

/** A report of one manifest's results. */
export function reportOf(desired: DesiredZone, casesFile: string, mode: PolicyReport['mode'], results: CaseResult[]): PolicyReport {
  const passed = results.filter((r) => r.pass).length;
  return { manifest: desired.file, zone: desired.zone, cases_file: casesFile, mode, results, passed, failed: results.length - passed };
}

/**
 * What the offline model assumes that the manifest does not say. `zonewall migrate --mode
 * validation --write` replaces `previous_waf` by `managed_rules` while the previous WAF still runs
 * beside the new one; offline it then runs at its defaults, which may not be the zone's settings.
 */
export function offlineNotes(desired: DesiredZone): string[] {
  if (desired.wafMigration !== 'validation' || desired.previousWaf !== undefined) return [];
  return ['waf_migration is validation, so the previous WAF still runs, but the manifest has no previous_waf: offline it runs at its defaults (a new zone\'s); --against-zone uses the zone\'s own settings'];
}

/** True when the run has no error and no failed case (exit 0). */
export function runPassed(result: PolicyRunResult): boolean {
  return result.errors.length === 0 && result.reports.every((r) => r.failed === 0);
}
