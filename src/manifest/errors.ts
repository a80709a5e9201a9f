/**
 * Manifest problems and how they read. Every problem is a located `ManifestIssue`
 * (`zone.yaml:12:7: firewall_rules.block-sqlmap.action: must be one of ...`); validation collects all
 * of them, and `ManifestError` carries the whole list when a caller needs to throw (after octoDNS's
 * `ValidationError(reasons)`). Issues are sorted by file, line and column so output is stable.
 */
import { ZonewallError } from '../errors.js';

/** One problem in a manifest, at a position of its file. */
export interface ManifestIssue {
  file: string;
  /** 1-based line; 0 when the problem concerns the whole file (unreadable, empty directory). */
  line: number;
  /** 1-based column (in UTF-16 code units, as editors count); 0 with `line` 0. */
  column: number;
  /** Where in the document: `firewall_rules.block-sqlmap.action`; empty for the document itself. */
  path: string;
  message: string;
  /** Characters to underline from `column` (at least 1), when known. */
  length?: number;
  /** The text of line `line`, for rendering a caret run under it. */
  excerpt?: string;
}

/** A path into the manifest document: map keys and list indexes. */
export type DocPath = readonly (string | number)[];

const plainSegment = /^[A-Za-z0-9_-]+$/;

/** Renders a path as `firewall_rules.block-sqlmap.action`, `managed_rules[0]`, `filters["a.b"]`. */
export function formatPath(path: DocPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (plainSegment.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** One line: `file:line:col: path: message` (position and path left out when unknown). */
export function formatIssue(issue: ManifestIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.column}` : issue.file;
  return issue.path === '' ? `${where}: ${issue.message}` : `${where}: ${issue.path}: ${issue.message}`;
}

/**
 * The issue line followed by the source line and a caret run under the offending text
 * (wirefilter's layout), when the issue carries an excerpt.
 */
export function formatIssueWithExcerpt(issue: ManifestIssue): string {
  const head = formatIssue(issue);
  if (issue.excerpt === undefined || issue.line === 0) return head;
  const gutter = String(issue.line);
  const { text: lineText, column } = excerptWindow(printable(issue.excerpt), issue.column);
  const room = Math.max(1, lineText.length - (column - 1));
  const carets = '^'.repeat(Math.max(1, Math.min(issue.length ?? 1, room)));
  const pad = ' '.repeat(gutter.length);
  return `${head}\n ${gutter} | ${lineText}\n ${pad} | ${' '.repeat(column - 1)}${carets}`;
}

/**
 * The source line as a terminal may show it: a tab as one space, and each other control character
 * (an escape sequence could recolour the terminal or retitle its window) as `�`, one for one, so
 * the carets stay under the text they mark.
 */
function printable(line: string): string {
  // eslint-disable-next-line no-control-regex
  return line.replace(/\t/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
}

/** Excerpt lines longer than this are cut to a window around the column (a minified JSON file is one line). */
const ExcerptMax = 200;

/** The part of a long line around `column` (1-based), with `…` where it was cut, and the column in it. */
function excerptWindow(line: string, column: number): { text: string; column: number } {
  if (line.length <= ExcerptMax) return { text: line, column };
  const start = Math.max(0, Math.min(column - 1 - ExcerptMax / 4, line.length - ExcerptMax));
  const end = Math.min(line.length, start + ExcerptMax);
  const before = start > 0 ? '…' : '';
  return { text: `${before}${line.slice(start, end)}${end < line.length ? '…' : ''}`, column: column - start + before.length };
}

/** Orders issues by file, then position, then path, then message. */
export function compareIssues(a: ManifestIssue, b: ManifestIssue): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.column !== b.column) return a.column - b.column;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

/** Thrown when a manifest is invalid: carries every reason, each located. */
export class ManifestError extends ZonewallError {
  readonly reasons: readonly ManifestIssue[];

  constructor(reasons: readonly ManifestIssue[]) {
    const sorted = [...reasons].sort(compareIssues);
    const count = sorted.length === 1 ? '1 error' : `${sorted.length} errors`;
    super('ERR_MANIFEST', `invalid manifest (${count}):\n${sorted.map(formatIssue).join('\n')}`);
    this.reasons = sorted;
  }
}
