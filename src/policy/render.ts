/**
 * Views of policy test results: a text table (one row per case: result, name, what was expected,
 * what happened and the rule that decided, then a `why` line with the rule's expression; failures
 * add what did not hold and where the case is written) and a versioned JSON document for
 * machines. Renderers decide nothing and never look at the terminal: the caller passes a style
 * (colors only on a TTY without NO_COLOR; the CLI decides).
 */
import type { ManifestIssue } from '../manifest/index.js';
import type { PolicyRunResult } from './run.js';
import type { CaseExpectation, CaseResult, PolicyReport } from './types.js';

/** The styling a text view uses (structurally the plan renderers' `Style`). */
export interface TextStyle {
  red(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

/** No colors. */
export const plainTextStyle: TextStyle = { red: (s) => s, green: (s) => s, dim: (s) => s, bold: (s) => s };

/** Version of the JSON document (`zonewall test --json`), `MAJOR.MINOR` like every `--json` document's; the major is bumped on incompatible changes. */
export const PolicyJsonVersion = '1.0';

const MaxColumn = 40;

/** The expectation in a few words: `block`, `allowed`, `firewall_rules.x`. */
export function expectationText(e: CaseExpectation): string {
  const parts: string[] = [];
  if (e.action !== undefined) parts.push(e.action);
  if (e.allowed !== undefined) parts.push(e.allowed ? 'allowed' : 'stopped');
  if (e.matched !== undefined) parts.push(e.matched.length === 0 ? 'no match' : e.matched.join(', '));
  // Burst cases: `first: #6 block until 650`, `acted 1`.
  if (e.first !== undefined) {
    const f = e.first;
    parts.push(['first:', f.request !== undefined ? `#${f.request}` : '', f.action ?? '', f.until !== undefined ? (f.until === null ? 'throttled' : `until ${f.until}`) : ''].filter((x) => x !== '').join(' '));
  }
  if (e.acted !== undefined) parts.push(`acted ${e.acted}`);
  return parts.join(', ');
}

function actualText(r: CaseResult): string {
  return r.actual.action ?? 'allowed';
}

function ruleText(r: CaseResult): string {
  if (r.actual.rule !== null) return r.actual.rule;
  const [first, ...more] = r.actual.matched;
  return first === undefined ? '-' : more.length > 0 ? `${first} +${more.length}` : first;
}

/** One manifest's results as a text table. */
export function renderReportText(report: PolicyReport, style: TextStyle = plainTextStyle): string {
  const head = `zone ${report.zone} (${report.manifest}), cases ${report.cases_file}, ${report.mode === 'offline' ? 'offline' : 'against the live zone'}`;
  const rows = report.results.map((r) => [r.pass ? 'pass' : 'FAIL', clip(r.name), clip(expectationText(r.expected)), actualText(r), ruleText(r)]);
  const header = ['RESULT', 'CASE', 'EXPECTED', 'ACTUAL', 'RULE'];
  const widths = header.map((h, i) => Math.min(MaxColumn, Math.max(h.length, ...rows.map((row) => row[i]!.length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const indent = ' '.repeat(widths[0]! + 4);
  const out = [style.bold(head), ...(report.notes ?? []).map((n) => style.dim(`note: ${n}`)), '', `  ${style.dim(line(header))}`];
  report.results.forEach((r, i) => {
    const row = line(rows[i]!);
    out.push(`  ${r.pass ? style.green(row.slice(0, 4)) + row.slice(4) : style.red(row)}`);
    if (!r.pass) {
      const at = `${r.location.file}:${r.location.line}:${r.location.column}`;
      for (const f of r.failures) out.push(`${indent}${style.red(`${at}: ${f}`)}`);
    }
    out.push(`${indent}${style.dim(`why: ${r.why}`)}`);
  });
  out.push('', summaryText(report.passed, report.failed, style));
  return `${out.join('\n')}\n`;
}

/** A cell of at most `MaxColumn` characters (the JSON view has every name in full). */
function clip(text: string): string {
  return text.length <= MaxColumn ? text : `${text.slice(0, MaxColumn - 3)}...`;
}

function summaryText(passed: number, failed: number, style: TextStyle): string {
  const text = `${passed} passed, ${failed} failed`;
  return failed > 0 ? style.red(text) : style.green(text);
}

/** Every report, skipped manifests, and a total line when there are several reports. */
export function renderRunText(run: PolicyRunResult, style: TextStyle = plainTextStyle): string {
  const parts = run.reports.map((r) => renderReportText(r, style));
  const notes = run.skipped.map((s) => `skipped ${s.manifest}: ${s.reason}`);
  if (notes.length > 0) parts.push(`${notes.join('\n')}\n`);
  if (run.reports.length > 1) {
    const passed = run.reports.reduce((n, r) => n + r.passed, 0);
    const failed = run.reports.reduce((n, r) => n + r.failed, 0);
    parts.push(`total: ${summaryText(passed, failed, style)} in ${run.reports.length} zones\n`);
  }
  return parts.join('\n');
}

/** The JSON document of a run. */
export function runJson(run: PolicyRunResult): Record<string, unknown> {
  const errors = run.errors.map(({ file, line, column, path, message }: ManifestIssue) => ({ file, line, column, path, message }));
  const passed = errors.length === 0 && run.reports.every((r) => r.failed === 0);
  return { format_version: PolicyJsonVersion, kind: 'zonewall.test', passed, reports: run.reports, skipped: run.skipped, errors };
}
