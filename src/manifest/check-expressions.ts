/**
 * Expression checks: every filter expression (shared and inline), every WAF custom rule expression
 * (phase `http_request_firewall_custom`) and every managed ruleset expression is parsed and type-checked by `src/expr`, with errors placed at the line and column of
 * the YAML file (not of the string); over-long expressions are refused; two filters with the same
 * expression by meaning (canonical form, sets as sets) are refused, as the service would refuse the second one.
 */
import { ExpressionError, formsOf, operatorOffset, parse } from '../expr/index.js';
import { formatPath, type DocPath } from './errors.js';
import { mapValueOffset } from './expression-position.js';
import { ManifestLimits } from './limits.js';
import { ownText } from './source.js';
import { recordMatches } from './tier.js';
import { entriesOf, isRecord, type Checks } from './view.js';

/** A valid expression: its canonical form, its equivalence key and where it uses `matches` (for plan checks). */
export interface CheckedExpression {
  canonical: string;
  /** Equal for expressions that differ only in how a set is written (order, repeats, ranges). */
  key: string;
  /** Offset in the source text of the first `matches` operator (the plan-gated one), if any. */
  matchesAt?: number;
}

/**
 * Valid expressions of a document, by section and index of the entry they are written in, in the
 * lists of `entriesOf` (`inline`: the inline filters of `firewall_rules`; `managed`: the items of
 * `managed_rules`): normalisation walks the same lists, so it finds each one by index, and the
 * table is four lists instead of a map of 2,000 objects per zone.
 */
export interface ExpressionTable {
  filters: (CheckedExpression | undefined)[];
  inline: (CheckedExpression | undefined)[];
  custom: (CheckedExpression | undefined)[];
  managed: (CheckedExpression | undefined)[];
}

/** The phase of managed ruleset expressions (the entry point that executes them). */
const managedPhase = 'http_request_firewall_managed';

/**
 * Valid expressions seen in this process, by phase and source text: parse, format and inspect are
 * pure, and a fleet's manifests repeat their expressions from zone to zone (50 zones of one rule set
 * parse each expression once). Errors are not kept: they are reported at each place they occur.
 */
const checked = { default: new Map<string, CheckedExpression>(), managed: new Map<string, CheckedExpression>() };
/** Bound of each memo (emptied when full): about 2 MiB of short expressions. */
const CheckedMemoEntries = 20_000;

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
    // The tier check asks the same of the canonical form (`~` is parsed as `matches`).
    if (!managed) recordMatches(forms.canonical, matchesAt !== undefined);
    if (memo.size >= CheckedMemoEntries) memo.clear();
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
function reportExpressionError(checks: Checks, path: DocPath, source: string, err: ExpressionError): void {
  const { locator } = checks;
  const span = locator.resolve(path).value;
  const start = mapValueOffset(locator.doc.text, span, source, err.offset);
  const end = mapValueOffset(locator.doc.text, span, source, err.offset + err.length);
  const hint = err.hint ? `; ${err.hint}` : '';
  checks.issues.push(locator.issueAt(start, Math.max(1, end - start), formatPath(path), `${err.reason}${hint}`));
}

/** Where an expression sits: filters must be unique; custom rules and managed rulesets need not. */
type ExpressionOwner = 'filter' | 'custom' | 'managed';

/**
 * Visits one expression: the map it is written in, where it sits, and the section and key (or
 * index) of its entry; its path is `expressionPath(section, key)`, made only when needed.
 */
type ExpressionVisit = (holder: Record<string, unknown>, owner: ExpressionOwner, section: string, key: string | number, index: number) => void;

/** The path of the expression of entry `key` of `section` (an inline filter's is under its rule's `filter`). */
function expressionPath(section: string, key: string | number): DocPath {
  return section === 'firewall_rules' ? [section, key, 'filter', 'expression'] : [section, key, 'expression'];
}

/** The expressions of a manifest: shared filters, inline filters, custom rules, then managed rulesets. */
function forEachExpression(checks: Checks, data: Record<string, unknown>, visit: ExpressionVisit): void {
  const filters = entriesOf(data.filters, checks);
  for (let i = 0; i < filters.keys.length; i++) visit(filters.values[i], 'filter', 'filters', filters.keys[i], i);
  const rules = entriesOf(data.firewall_rules, checks);
  for (let i = 0; i < rules.keys.length; i++) {
    const inline = rules.values[i].filter;
    if (isRecord(inline)) visit(inline, 'filter', 'firewall_rules', rules.keys[i], i);
  }
  // Custom rules use the default phase, http_request_firewall_custom.
  const custom = entriesOf(data.custom_rules, checks);
  for (let i = 0; i < custom.keys.length; i++) visit(custom.values[i], 'custom', 'custom_rules', custom.keys[i], i);
  if (Array.isArray(data.managed_rules)) {
    for (const [i, item] of data.managed_rules.entries()) {
      if (isRecord(item) && item.expression !== undefined) visit(item, 'managed', 'managed_rules', i, i);
    }
  }
}

/**
 * The first filter of an expression (by equivalence key) in the manifest being checked: its index in
 * the list of `filters` (`shared`) or of `firewall_rules` (an inline filter; shared filters come first).
 * Kept between manifests, in `firstFilters`, and taken over by the next manifest with the same
 * expression: a fleet's manifests repeat their expressions, and a map of 1,000 keys per manifest
 * was a tenth of what checking its expressions allocated. Numbers only: nothing of a manifest is kept.
 */
interface FirstFilter {
  /** The `checkExpressions` call it belongs to. */
  check: number;
  index: number;
  shared: boolean;
}

const firstFilters = new Map<string, FirstFilter>();
/** Bound of `firstFilters`: emptied, when past it, between manifests only (never during a check, where it would hide a duplicate). */
const FirstFilterEntries = 20_000;
let checkCount = 0;

/** Checks every expression and duplicate filter expressions; returns the valid ones. */
export function checkExpressions(checks: Checks, data: Record<string, unknown>): ExpressionTable {
  const shared = entriesOf(data.filters, checks);
  const rules = entriesOf(data.firewall_rules, checks);
  // Sized up front (an entry per entry of its section): filled in index by index, a list of 1,000
  // grows through a dozen copies.
  const table: ExpressionTable = {
    filters: new Array(shared.keys.length), inline: new Array(rules.keys.length), custom: new Array(entriesOf(data.custom_rules, checks).keys.length),
    managed: [],
  };
  const lists: Record<string, (CheckedExpression | undefined)[]> = {
    filters: table.filters, firewall_rules: table.inline, custom_rules: table.custom, managed_rules: table.managed,
  };
  const check = ++checkCount;
  if (firstFilters.size >= FirstFilterEntries) firstFilters.clear();
  forEachExpression(checks, data, (holder, owner, section, key, index) => {
    const source = holder.expression;
    if (typeof source !== 'string') return;
    // A valid manifest's expressions are all clean and, across a fleet, mostly checked already: no path for them.
    const path = checks.allClean() ? undefined : expressionPath(section, key);
    if (path !== undefined && !checks.isClean(path)) return;
    const managed = owner === 'managed';
    const checked = knownExpression(source, managed) ?? checkExpressionAt(checks, path ?? expressionPath(section, key), source, managed);
    if (checked === undefined) return;
    lists[section][index] = checked;
    if (owner !== 'filter') return;
    const first = firstFilters.get(checked.key);
    if (first === undefined) {
      firstFilters.set(checked.key, { check, index, shared: section === 'filters' });
      return;
    }
    if (first.check !== check) {
      first.check = check;
      first.index = index;
      first.shared = section === 'filters';
      return;
    }
    const here = path ?? expressionPath(section, key);
    const firstPath = first.shared ? expressionPath('filters', shared.keys[first.index]) : expressionPath('firewall_rules', rules.keys[first.index]);
    checks.report(here, duplicateMessage(checks, firstPath, here));
  });
  return table;
}

function duplicateMessage(checks: Checks, first: DocPath, path: DocPath): string {
  const owner = first.slice(0, -1);
  const where = `${formatPath(owner)} (line ${checks.lineOf(owner)})`;
  const sharedFirst = first[0] === 'filters';
  const way = sharedFirst && path[0] === 'firewall_rules'
    ? `use filter: ${String(first[1])} instead`
    : 'keep one and share it between rules';
  return `same expression as ${where}; the service refuses duplicate filters: ${way}`;
}
