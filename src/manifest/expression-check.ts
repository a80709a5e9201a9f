/**
 * The machinery that checks one expression of a manifest, shared by every kind: it is parsed and
 * type-checked by `src/expr` (in the phase of the entry point that runs it), errors are placed at
 * the line and column of the YAML file (not of the string), over-long expressions are refused, and
 * valid ones are remembered by source text, since a fleet's manifests repeat their expressions.
 * Which expressions a section has, and what else holds between them, is each kind's business.
 */
import { ExpressionError, formsOf, listUses, operatorOffset, parse, type ListUse } from '../expr/index.js';
import { formatPath, type DocPath } from './errors.js';
import { mapValueOffset } from './expression-position.js';
import { ManifestLimits } from './limits.js';
import { ownText } from './source.js';
import { recordMatches } from './plan-tier.js';
import { RetiredFields, retiredFieldUses, type RetiredFieldUse } from './deprecated-fields.js';
import type { Checks } from './view.js';

/** A valid expression: its canonical form, its equivalence key and where it uses `matches` (for plan checks). */
export interface CheckedExpression {
  canonical: string;
  /** Equal for expressions that differ only in how a set is written (order, repeats, ranges). */
  key: string;
  /** Offset in the source text of the first `matches` operator (the plan-gated one), if any. */
  matchesAt?: number;
  /** Uses of retired fields (`cf.threat_score`): each is a warning wherever the expression occurs. */
  retired?: RetiredFieldUse[];
  /** Its `in $name` comparisons, checked against the visible lists once every manifest is loaded. */
  lists?: ListUse[];
}

/** The phase of the expressions of rules that execute rulesets (the entry point that runs them). */
const managedPhase = 'http_request_firewall_managed';

/**
 * Valid expressions seen in this process, by phase and source text: parse, format and inspect are
 * pure, and a fleet's manifests repeat their expressions from zone to zone (50 zones of one rule set
 * parse each expression once). Errors are not kept: they are reported at each place they occur.
 */
const checked = { default: new Map<string, CheckedExpression>(), managed: new Map<string, CheckedExpression>() };
/** Bound of each memo (emptied when full): about 2 MiB of short expressions. */
const CheckedMemoEntries = 20_000;

/**
 * Equivalence keys of the checked expressions' canonical texts that have a set literal (the others'
 * key is their text): the planner compares desired expressions by key, and would parse them again.
 */
const keysOfCanonical = new Map<string, string>();

/** The equivalence key of a canonical text this process has checked, if it has a set literal. */
export function checkedKeyOf(canonical: string): string | undefined {
  return keysOfCanonical.get(canonical);
}

/** The valid expression `source` when this process has checked it already. */
function knownExpression(source: string, managed: boolean): CheckedExpression | undefined {
  return (managed ? checked.managed : checked.default).get(source);
}

/** Checks one expression at `path`; returns its canonical form, or reports and returns undefined. */
export function checkExpressionAt(checks: Checks, path: DocPath, source: string, managed = false): CheckedExpression | undefined {
  if (source.length > ManifestLimits.expressionLength) {
    checks.report(path, `expression is ${source.length} characters long; the service accepts at most ${ManifestLimits.expressionLength}`);
    return undefined;
  }
  // One memo per phase, keyed by the source itself: a prefixed key would be a new string to hash per lookup.
  const memo = managed ? checked.managed : checked.default;
  const known = memo.get(source);
  if (known !== undefined) return known;
  try {
    const expr = managed ? parse(source, { phase: managedPhase }) : parse(source);
    // One walk for the one operator the plan checks need (`inspect` would build three sets).
    const matchesAt = operatorOffset(expr, source, 'matches');
    const forms = formsOf(expr);
    const result: CheckedExpression = { canonical: forms.canonical, key: forms.key };
    if (matchesAt !== undefined) result.matchesAt = matchesAt;
    const retired = retiredFieldUses(expr);
    if (retired.length > 0) result.retired = retired;
    const lists = listUses(expr, source);
    if (lists.length > 0) result.lists = lists;
    // The tier check asks the same of the canonical form (`~` is parsed as `matches`).
    if (!managed) recordMatches(forms.canonical, matchesAt !== undefined);
    if (memo.size >= CheckedMemoEntries) memo.clear();
    if (!managed && forms.canonical.includes('{')) {
      if (keysOfCanonical.size >= CheckedMemoEntries) keysOfCanonical.clear();
      keysOfCanonical.set(forms.canonical, forms.key);
    }
    // Keyed by a copy: the source is cut from its manifest's text, which the memo would keep alive.
    memo.set(ownText(source), result);
    return result;
  } catch (err) {
    if (err instanceof ExpressionError) {
      reportExpressionError(checks, path, source, err);
      return undefined;
    }
    // A bug in the expression checker must not take validation down with it.
    const why = err instanceof Error ? err.message : String(err);
    checks.report(path, `could not check this expression (internal error: ${why})`);
    return undefined;
  }
}

/** Places an expression error at its position in the file. */
export function reportExpressionError(checks: Checks, path: DocPath, source: string, err: ExpressionError): void {
  const { locator } = checks;
  const span = locator.resolve(path).value;
  const start = mapValueOffset(locator.doc.text, span, source, err.offset);
  const end = mapValueOffset(locator.doc.text, span, source, err.offset + err.length);
  const hint = err.hint ? `; ${err.hint}` : '';
  checks.issues.push(locator.viaAlias(locator.issueAt(start, Math.max(1, end - start), formatPath(path), `${err.reason}${hint}`), path));
}

/**
 * The path of the expression of entry `key` of `section`; `under`: the field of the entry that holds
 * it, when the expression is not the entry's own (an inline filter is under its rule's `filter`).
 */
export function expressionPath(section: string, key: string | number, under?: string): DocPath {
  return under === undefined ? [section, key, 'expression'] : [section, key, under, 'expression'];
}

/**
 * Checks the expression `source` of entry `key` of `section` (see `expressionPath`), unless it is not
 * a string or the schema found its place broken; returns it when valid. `managed`: it runs in the
 * managed phase. A valid manifest's expressions are all clean and, across a fleet, mostly checked
 * already: then no path is made for them.
 */
export function checkEntryExpression(
  checks: Checks, source: unknown, section: string, key: string | number, managed = false, under?: string,
): CheckedExpression | undefined {
  if (typeof source !== 'string') return undefined;
  const path = checks.allClean() ? undefined : expressionPath(section, key, under);
  if (path !== undefined && !checks.isClean(path)) return undefined;
  const checked = knownExpression(source, managed) ?? checkExpressionAt(checks, path ?? expressionPath(section, key, under), source, managed);
  if (checked?.retired !== undefined) warnRetired(checks, path ?? expressionPath(section, key, under), source, checked.retired);
  if (checked?.lists !== undefined) recordListUses(checks, path ?? expressionPath(section, key, under), source, checked.lists);
  return checked;
}

/** A warning at each use of a retired field, placed in the file as errors are. */
function warnRetired(checks: Checks, path: DocPath, source: string, uses: readonly RetiredFieldUse[]): void {
  const { locator } = checks;
  const span = locator.resolve(path).value;
  for (const use of uses) {
    const start = mapValueOffset(locator.doc.text, span, source, use.offset);
    const end = mapValueOffset(locator.doc.text, span, source, use.offset + use.length);
    checks.warnings.push(locator.viaAlias(locator.issueAt(start, Math.max(1, end - start), formatPath(path), `${use.field} is retired: ${RetiredFields.get(use.field)!}`), path));
  }
}

/** Each `$name` of a valid expression, placed in the file, for the check against the visible lists. */
export function recordListUses(checks: Checks, path: DocPath, source: string, uses: readonly ListUse[]): void {
  const { locator } = checks;
  const span = locator.resolve(path).value;
  const rule = formatPath(path.slice(0, 2));
  for (const use of uses) {
    const start = mapValueOffset(locator.doc.text, span, source, use.offset);
    const end = mapValueOffset(locator.doc.text, span, source, use.offset + use.length);
    checks.listReferences.push({ use, rule, at: locator.issueAt(start, Math.max(1, end - start), formatPath(path), '') });
  }
}
