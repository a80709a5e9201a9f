/**
 * The text rendering of a plan, for terminals and logs: one block per change (`+` create, `~`
 * update, `-/+` replace, `-` delete) with attribute-level `old -> new` and word-level diffs of
 * changed expressions, then unmanaged objects, findings, the API call estimate and the summary
 * line `Plan: 2 to add, 1 to change, 0 to replace, 1 to destroy.` Reads a Plan; decides nothing.
 */
import { aliasNote } from '../../manifest/index.js';
import { ActionGlyphs } from '../action.js';
import type { Attributes, Change } from '../change.js';
import { resourceOf } from '../kinds.js';
import type { Finding } from '../finding.js';
import type { RunCalls } from '../calls.js';
import { hasChanges, type CallEstimate, type Plan, type PlanSummary, type UnmanagedObject } from '../plan.js';
import { plainStyle, type Style } from './style.js';
import { formatAttributeValue, wordDiff } from './values.js';
import { thousands } from './numbers.js';

/** How many unmanaged objects the text lists before summarising the rest. */
export const UnmanagedListLimit = 50;

/** Reasons worth naming next to a change's header (the others are implied by its action). */
const tellReason = new Set(['renamed', 'reordered', 'repointed', 'filter-replaced', 'adopted', 'duplicate-ref', 'prune', 'follows-rule', 'recreated-with-filter', 'reset-to-default']);
/** Attributes a create does not list (empty, or already in the header). */
const hiddenOnCreate = new Set(['ref', 'position']);

function glyph(c: Change, s: Style): string {
  const g = ActionGlyphs[c.action];
  switch (c.action) {
    case 'create': return s.green(g);
    case 'update': return s.yellow(g);
    case 'replace': return s.red(g);
    case 'delete': return s.red(g);
    default: return g;
  }
}

function header(c: Change, s: Style): string {
  const name = c.ref !== '' ? `"${c.ref}"` : '(unmanaged)';
  const details: string[] = [];
  if (c.reason === 'renamed' && c.before?.ref !== undefined && c.before.ref !== '') details.push(`renamed from "${String(c.before.ref)}"`);
  if (c.id !== undefined && c.id !== c.ref) details.push(`id ${c.id}`);
  const extra = details.length > 0 ? ` (${details.join(', ')})` : '';
  const reason = tellReason.has(c.reason) && c.reason !== 'renamed' ? s.dim(`  # ${c.reason}`) : '';
  return `  ${glyph(c, s)} ${s.bold(c.kind)} ${name}${extra}${reason}`;
}

function isEmpty(v: unknown): boolean {
  return v === '' || v === null || (Array.isArray(v) && v.length === 0);
}

function attributeLines(c: Change, s: Style): string[] {
  const pad = '      ';
  if (c.action === 'create' || c.action === 'delete') {
    const attrs = (c.action === 'create' ? c.after : c.before) as Attributes;
    return Object.entries(attrs)
      .filter(([k, v]) => !hiddenOnCreate.has(k) && (k === 'priority' || !isEmpty(v)) && !(k === 'paused' && v === false))
      .map(([k, v]) => `${pad}${k}: ${formatAttributeValue(k, v)}`);
  }
  const lines: string[] = [];
  const kind = resourceOf(c.kind).kind;
  for (const name of c.changed) {
    if (name === 'ref' && c.reason === 'renamed') {
      lines.push(`${pad}ref: ${formatAttributeValue(name, c.before?.[name])} -> ${formatAttributeValue(name, c.after?.[name])}`);
      continue;
    }
    const b = c.before?.[name];
    const a = c.after?.[name];
    const deltas = kind.attributeDeltas?.(name, b, a);
    if (name === 'position') {
      // A move within an ordered list of rules: `position 3 -> 1`.
      lines.push(`${pad}position ${formatAttributeValue(name, b)} -> ${formatAttributeValue(name, a)}`);
    } else if (name === 'expression' && typeof b === 'string' && typeof a === 'string') {
      lines.push(`${pad}expression: ${wordDiff(b, a, s)}`);
    } else if (deltas !== undefined) {
      for (const d of deltas) lines.push(`${pad}${name}: ${d.label}: ${s.red(d.before)} -> ${s.green(d.after)}`);
    } else {
      lines.push(`${pad}${name}: ${s.red(formatAttributeValue(name, b))} -> ${s.green(formatAttributeValue(name, a))}`);
    }
  }
  return lines;
}

/** The lines of one change. */
export function renderChange(c: Change, s: Style = plainStyle): string[] {
  const lines = [header(c, s), ...attributeLines(c, s)];
  if (c.note !== undefined) lines.push(s.dim(`      # ${c.note}`));
  return lines;
}

/** The unmanaged objects section. */
export function renderUnmanaged(list: readonly UnmanagedObject[], s: Style = plainStyle): string[] {
  if (list.length === 0) return [];
  const shown = list.slice(0, UnmanagedListLimit).map((u) => `  ${s.dim('?')} ${u.kind} ${u.id}: ${u.summary}`);
  if (list.length > UnmanagedListLimit) shown.push(`  … and ${list.length - UnmanagedListLimit} more (zonewall plan --json lists them all)`);
  return [`Unmanaged objects (${list.length}, not in any manifest: left alone; --prune deletes them):`, ...shown];
}

function levelLabel(f: Finding, s: Style): string {
  const text = f.level.toUpperCase().padEnd(7);
  return f.level === 'warning' ? s.yellow(text) : s.red(s.bold(text));
}

/** The findings section. */
export function renderFindings(findings: readonly Finding[], s: Style = plainStyle): string[] {
  if (findings.length === 0) return [];
  const order = { error: 0, danger: 1, warning: 2 } as const;
  const sorted = [...findings].sort((a, b) => order[a.level] - order[b.level]);
  return ['Findings:', ...sorted.map((f) => {
    const at = f.location !== undefined ? ` (${f.location.file}:${f.location.line}:${f.location.column})${aliasNote(f.location.alias)}` : '';
    return `  ${levelLabel(f, s)} ${f.code}: ${f.message}${at}`;
  })];
}

/** The API call estimate line of one zone: what applying its plan writes (the run line has the budget). */
export function renderCalls(calls: CallEstimate): string {
  const parts = calls.phases.map((p) => `${p.phase} ${p.requests}`).join(', ');
  const preflight = calls.preflight === undefined ? '' : ` Pre-flight: ${count(calls.preflight, 'dry-run request')} made.`;
  return `API calls: ${count(calls.requests, 'write request')}${parts !== '' ? ` (${parts})` : ''}.${preflight}`;
}

const count = (n: number, what: string) => `${thousands(n)} ${what}${n === 1 ? '' : 's'}`;

/** A wait in words: seconds under two minutes, else minutes. */
function waitWords(seconds: number): string {
  return seconds < 120 ? `${Math.ceil(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

/**
 * The run's call estimate: every zone's reads and writes against the budget they share.
 * `API calls for this run: 1,450 requests (1,440 reads, 10 writes), about 5 min of waiting at 1,200/300 s.`
 */
export function renderRunCalls(calls: RunCalls): string {
  const rate = `${thousands(calls.budget.requests)}/${calls.budget.windowSeconds} s`;
  const wait = calls.waitSeconds === 0 ? `within the budget of ${rate}, no wait` : `about ${waitWords(calls.waitSeconds)} of waiting at ${rate}`;
  return `API calls for this run: ${count(calls.requests, 'request')} (${count(calls.reads, 'read')}, ${count(calls.writes, 'write')}), ${wait}.`;
}

/** `Plan: 2 to add, 1 to change, 0 to replace, 1 to destroy.` */
export function renderSummaryLine(summary: PlanSummary): string {
  return `Plan: ${summary.add} to add, ${summary.change} to change, ${summary.replace} to replace, ${summary.destroy} to destroy.`;
}

/**
 * `zone ID`, or `new zone` for a zone the plan found missing (`zone.waf` is set only then): its id
 * is the one this run would create it with, which only a saved plan keeps, so it is not shown (as
 * Terraform's "known after apply").
 */
export function zoneWords(zone: Plan['zone'], showId: (id: string) => string = (id) => id): string {
  return zone.waf !== undefined ? 'new zone' : `zone ${showId(zone.id)}`;
}

/** The heading of a zone's plan. */
export function renderHeading(plan: Plan, s: Style = plainStyle): string {
  const tier = plan.zone.plan !== undefined ? `, ${plan.zone.plan}` : '';
  return s.bold(`${plan.zone.name} (${zoneWords(plan.zone)}${tier}) — ${plan.manifest.file}`);
}

/**
 * The whole text of one zone's plan.
 * @example process.stdout.write(renderPlanText(plan, createStyle(process.stdout.isTTY)))
 */
export function renderPlanText(plan: Plan, s: Style = plainStyle): string {
  const lines = [renderHeading(plan, s), ''];
  const changes = plan.changes.filter((c) => c.action !== 'no-op');
  if (changes.length === 0) lines.push(`No changes. ${plan.zone.name} matches its manifest.`, '');
  for (const c of changes) lines.push(...renderChange(c, s));
  if (changes.length > 0) lines.push('');
  for (const section of [renderUnmanaged(plan.unmanaged, s), renderFindings(plan.findings, s)]) {
    if (section.length > 0) lines.push(...section, '');
  }
  if (hasChanges(plan)) lines.push(renderCalls(plan.calls));
  lines.push(s.bold(renderSummaryLine(plan.summary)));
  return `${lines.join('\n')}\n`;
}
