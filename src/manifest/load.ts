/**
 * Loading manifests from disk. A path may be a file or a directory of manifests (every `*.yaml` and
 * `*.yml` directly inside it, sorted by name, not recursive, except `*.tests.yaml` policy case files,
 * which may sit beside their manifest), so a directory works wherever one file does. All files are validated and all their issues returned together; one zone may be configured
 * by one manifest only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DesiredZone } from './desired.js';
import { compareIssues, ManifestError, type ManifestIssue } from './errors.js';
import { fileErrorReason } from '../errors.js';
import { encodingIssue } from './encoding.js';
import { isAccountManifestText, validateAccountManifestText } from './lists/account.js';
import { accountLists, checkListReferences, noLists } from './lists/check-references.js';
import type { DesiredAccount } from './lists/desired.js';
import { validateManifestText, type ManifestResult, type ValidateOptions } from './validate.js';

/** The outcome of loading several manifests. */
export interface LoadResult {
  /** The files read, in order (directories expanded). */
  files: string[];
  /** The zones of the files that are valid. */
  zones: DesiredZone[];
  /** Every issue of every file, sorted. */
  errors: ManifestIssue[];
  /** Every warning of every file (retired fields in expressions), sorted; they block nothing. */
  warnings: ManifestIssue[];
  /** The account manifest of the run, when there is one and it is valid (at most one per run). */
  account?: DesiredAccount;
}

const manifestFile = /\.ya?ml$/i;
/** Policy case files (`zonewall test`) live beside manifests; they are not manifests. */
const casesFile = /\.tests\.ya?ml$/i;

function wholeFile(file: string, message: string): ManifestIssue {
  return { file, line: 0, column: 0, path: '', message };
}

function describeIoError(err: unknown): string {
  return fileErrorReason(err);
}

/** Expands directories into their manifest files; unreadable paths become issues. */
export async function expandPaths(paths: readonly string[]): Promise<{ files: string[]; issues: ManifestIssue[] }> {
  const files: string[] = [];
  const issues: ManifestIssue[] = [];
  for (const path of paths) {
    if (path.trim() === '') {
      issues.push(wholeFile('""', 'an empty path (an unset variable?): give a manifest file or a directory of manifests'));
      continue;
    }
    try {
      // At once, as files are read (`loadManifestFile`); and node:fs/promises is not loaded for two calls.
      if (!statSync(path).isDirectory()) {
        files.push(path);
        continue;
      }
      const names = readdirSync(path, { withFileTypes: true })
        .filter((d) => !d.isDirectory() && manifestFile.test(d.name) && !casesFile.test(d.name))
        .map((d) => d.name)
        .sort();
      if (names.length === 0) issues.push(wholeFile(path, 'no manifests (*.yaml, *.yml) in this directory'));
      files.push(...names.map((n) => join(path, n)));
    } catch (err) {
      issues.push(wholeFile(path, describeIoError(err)));
    }
  }
  return { files: [...new Set(files)], issues };
}

/** Reads and validates one manifest file (not a directory). */
export async function loadManifestFile(file: string, options: ValidateOptions = {}): Promise<ManifestResult> {
  let text: string;
  try {
    // Read at once: an asynchronous read is four thread-pool round trips (open, stat, read, close)
    // per file, and a run over many manifests waits for each of them in turn.
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { file, issues: [wholeFile(file, describeIoError(err))], warnings: [] };
  }
  const encoding = encodingIssue(file, text);
  if (encoding !== undefined) return { file, issues: [encoding], warnings: [] };
  if (isAccountManifestText(text)) {
    const result = validateAccountManifestText(text, file);
    return result.account === undefined
      ? { file, issues: result.issues, warnings: [], accountManifest: true }
      : { file, issues: [], warnings: [], account: result.account, accountManifest: true };
  }
  return validateManifestText(text, file, options);
}

/** The outcome of loading one path: a `LoadResult`, plus the single-zone view of it. */
export interface PathLoadResult extends LoadResult {
  /** The zone, when the path holds exactly one manifest and it is valid. */
  zone?: DesiredZone;
  /** The same list as `errors` (the name `ManifestResult` uses for one file). */
  issues: ManifestIssue[];
}

/**
 * Reads and validates one manifest path: a file, or a directory of manifests.
 * @example const { zone, issues } = await loadManifest('zones/example.com.yaml');
 */
export async function loadManifest(path: string, options: ValidateOptions = {}): Promise<PathLoadResult> {
  const result = await loadManifests([path], options);
  const single = result.files.length === 1 && result.errors.length === 0 ? result.zones[0] : undefined;
  return single === undefined ? { ...result, issues: result.errors } : { ...result, zone: single, issues: result.errors };
}

/** The issue of a manifest whose zone an earlier file (`first`) already configures. */
export function duplicateZoneIssue(zone: DesiredZone, first: string): ManifestIssue {
  const at = zone.locations.zone;
  return {
    file: zone.file, line: at?.line ?? 0, column: at?.column ?? 0, path: 'zone',
    message: `zone "${zone.zone}" is already configured by ${first}; one manifest per zone`,
  };
}

/** Reads and validates manifests (files or directories); returns valid zones and all issues. */
export async function loadManifests(paths: readonly string[], options: ValidateOptions = {}): Promise<LoadResult> {
  const { files, issues } = await expandPaths(paths);
  const zones: DesiredZone[] = [];
  const warnings: ManifestIssue[] = [];
  const owner = new Map<string, DesiredZone>();
  let account: DesiredAccount | undefined;
  let accountFiles = 0;
  for (const file of files) {
    const result = await loadManifestFile(file, options);
    issues.push(...result.issues);
    warnings.push(...result.warnings);
    if (result.account !== undefined) {
      if (account === undefined) account = result.account;
      else issues.push(secondAccountIssue(result.account, account.file));
    }
    if (result.accountManifest === true) accountFiles++;
    if (result.zone === undefined) continue;
    const first = owner.get(result.zone.zone.toLowerCase());
    if (first !== undefined) {
      issues.push(duplicateZoneIssue(result.zone, first.file));
      continue;
    }
    owner.set(result.zone.zone.toLowerCase(), result.zone);
    zones.push(result.zone);
  }
  // An account manifest with errors hides its lists: its `$name`s are not reported twice.
  if (account !== undefined) issues.push(...checkListReferences(zones, accountLists(account)));
  else if (accountFiles === 0 && options.lists !== 'later') issues.push(...checkListReferences(zones, options.lists ?? noLists));
  const out: LoadResult = { files, zones, errors: issues.sort(compareIssues), warnings: warnings.sort(compareIssues) };
  if (account !== undefined) out.account = account;
  return out;
}

/** The issue of a second account manifest in one run. */
function secondAccountIssue(account: DesiredAccount, first: string): ManifestIssue {
  const at = account.locations.account;
  return {
    file: account.file, line: at?.line ?? 0, column: at?.column ?? 0, path: 'account',
    message: `${first} is already this run's account manifest; one account manifest per run`,
  };
}

/**
 * Like `loadManifests`, for commands that need valid zones: throws a `ManifestError` carrying every
 * issue when there is any.
 */
export async function requireManifests(paths: readonly string[], options: ValidateOptions = {}): Promise<DesiredZone[]> {
  const { zones, errors } = await loadManifests(paths, options);
  if (errors.length > 0) throw new ManifestError(errors);
  return zones;
}
