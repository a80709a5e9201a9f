/**
 * Validation of one manifest's text, end to end: YAML with positions, the JSON Schema, expressions,
 * each kind's checks of its sections (references, priorities, catalog, ...), and (when the tier is
 * known) what the zone's plan allows. Every stage runs even when an earlier one found problems, on the parts that
 * are still sound, so one run reports everything; the desired zone is returned only when there is
 * nothing to report. Offline: no provider, no network.
 */
import { checkExpressions } from './check-expressions.js';
import { checkSections } from './check-sections.js';
import type { DesiredPlanTier, DesiredZone } from './desired.js';
import { compareIssues, formatIssue, formatPath, type ManifestIssue } from './errors.js';
import { Locator } from './locate.js';
import { normalize } from './normalize.js';
import { readManifestYaml } from './read.js';
import { checkSchema } from './schema.js';
import { LineIndex } from './source.js';
import type { VisibleLists } from './lists/check-references.js';
import type { DesiredAccount } from './lists/desired.js';
import { checkAgainstZone } from './tier.js';
import { startingWafGenerationOf } from './kinds.js';
import { Checks, isRecord } from './view.js';

/** Options of validation. */
export interface ValidateOptions {
  /** The zone's plan tier when known (e.g. from a provider); wins over the manifest's `plan:`. */
  tier?: DesiredPlanTier;
  /**
   * The lists `$name`s are checked against when the run has no account manifest (the live
   * account's, read through a provider); `'later'`: the caller checks them itself
   * (`checkListReferences`) once it has read them. Without either, every `$name` of a run without
   * an account manifest is an unknown list.
   */
  lists?: VisibleLists | 'later';
}

/** The outcome of validating one manifest. */
export interface ManifestResult {
  file: string;
  /** The desired zone; present only when `issues` is empty. */
  zone?: DesiredZone;
  /** Every problem found, sorted by position. */
  issues: ManifestIssue[];
  /** Warnings (retired fields in expressions), sorted by position; they never make the file invalid. */
  warnings: ManifestIssue[];
  /** The account, when the file is a valid account manifest (`account:` instead of `zone:`). */
  account?: DesiredAccount;
  /** True when the file is an account manifest, valid or not. */
  accountManifest?: boolean;
}

/**
 * Validates the text of one manifest; `file` is the name used in issues. Never throws on bad input.
 * @example validateManifestText('zone: example.com\n', 'zone.yaml').zone?.zone // 'example.com'
 */
export function validateManifestText(text: string, file: string, options: ValidateOptions = {}): ManifestResult {
  const lines = new LineIndex(text);
  try {
    const issues = collectIssues(text, file, lines, options);
    const warnings = finish(issues.warnings ?? []);
    return issues.zone !== undefined && issues.list.length === 0
      ? { file, zone: issues.zone, issues: [], warnings }
      : { file, issues: finish(issues.list), warnings };
  } catch (err) {
    // A bug must not take a whole validate run down: report it where the user can see it.
    const why = err instanceof Error ? err.message : String(err);
    return { file, issues: [{ file, line: 1, column: 1, path: '', message: `internal error while validating: ${why}` }], warnings: [] };
  }
}

function collectIssues(text: string, file: string, lines: LineIndex, options: ValidateOptions): { list: ManifestIssue[]; warnings?: ManifestIssue[]; zone?: DesiredZone } {
  const doc = readManifestYaml(text, lines);
  const locator = new Locator(file, doc, lines);
  const list = doc.problems.map((p) => locator.issueAt(p.offset, p.length, p.path ? formatPath(p.path) : '', p.message));
  if (doc.fatal) return { list };
  if (doc.data === undefined || doc.data === null) {
    list.push(locator.issueAt(0, 1, '', 'the manifest is empty: it needs at least `zone: <zone name or id>`'));
    return { list };
  }
  if (isRecord(doc.data) && Array.isArray(doc.data.cases) && doc.data.filters === undefined) {
    // A policy tests file given where a manifest goes (`plan x.tests.yaml`): say what it is, once.
    list.push(locator.issue(['cases'], 'this is a policy tests file, not a zone manifest: run `zonewall test MANIFEST --cases FILE` with it', 'key'));
    return { list };
  }
  const schema = checkSchema(doc.data, locator);
  list.push(...schema.issues);
  if (!isRecord(doc.data)) return { list };
  const checks = new Checks(locator, schema.dirty);
  const expressions = checkExpressions(checks, doc.data);
  checkSections(checks, doc.data);
  list.push(...checks.issues);
  const zone = normalize(checks, doc.data, expressions);
  if (checks.listReferences.length > 0) zone.listReferences = checks.listReferences;
  const tier = options.tier ?? zone.plan;
  // `--plan TIER` (validate offline) checks a zone of that tier as the service creates it, on the
  // generation the manifest starts from (`startingWafGenerationOf`). The manifest's own `plan:`
  // says nothing of the zone's state: a plan reads it (`TierReport.waf`).
  for (const issue of checkAgainstZone(zone, { plan: tier, waf: options.tier === undefined ? 'unknown' : startingWafGenerationOf(zone) })) {
    list.push(issue.line > 0 ? { ...issue, excerpt: lines.lineText(issue.line) } : issue);
  }
  return { list, warnings: checks.warnings.map((w) => (w.line > 0 ? { ...w, excerpt: lines.lineText(w.line) } : w)), zone };
}

/** Sorted, without repeats. */
function finish(issues: ManifestIssue[]): ManifestIssue[] {
  const seen = new Set<string>();
  return issues.sort(compareIssues).filter((i) => {
    const key = formatIssue(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
