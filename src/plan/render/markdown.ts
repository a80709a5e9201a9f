/**
 * The markdown rendering of a plan, for pull-request comments (after octoDNS's `PlanMarkdown`): a
 * heading and the summary line, a table of changes with attribute-level `old → new`, expression
 * diffs in a collapsed `diff` block, then findings, unmanaged objects and the API call estimate.
 * Reads a Plan; decides nothing.
 */
import { ActionGlyphs } from '../action.js';
import type { Attributes, Change } from '../change.js';
import { resourceOf } from '../kinds.js';
import { hasChanges, type Plan } from '../plan.js';
import { formatAttributeValue } from './values.js';
import { renderCalls, renderSummaryLine, UnmanagedListLimit, zoneWords } from './text.js';

/** Escapes text for a markdown table cell. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Inline code that survives backticks in the value. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text.startsWith('`') ? ' ' : ''}${text}${text.endsWith('`') ? ' ' : ''}${fence}`;
}

function details(c: Change): string {
  if (c.action === 'create' || c.action === 'delete') {
    const attrs = (c.action === 'create' ? c.after : c.before) as Attributes;
    return Object.entries(attrs)
      .filter(([k, v]) => k !== 'ref' && k !== 'position' && v !== '' && v !== null && !(Array.isArray(v) && v.length === 0) && !(k === 'paused' && v === false))
      .map(([k, v]) => `${k}: ${code(formatAttributeValue(k, v))}`).join('<br>');
  }
  const kind = resourceOf(c.kind).kind;
  return c.changed.flatMap((n) => kind.attributeDeltas?.(n, c.before?.[n], c.after?.[n])?.map((d) => `${n}: ${d.label}: ${code(d.before)} → ${code(d.after)}`)
    ?? [`${n}: ${code(formatAttributeValue(n, c.before?.[n]))} → ${code(formatAttributeValue(n, c.after?.[n]))}`]).join('<br>');
}

function expressionDiffs(changes: readonly Change[]): string[] {
  const blocks: string[] = [];
  for (const c of changes) {
    if (!c.changed.includes('expression') || c.action === 'create' || c.action === 'delete') continue;
    blocks.push(`# ${c.kind} "${c.ref}"`, `- ${String(c.before?.expression)}`, `+ ${String(c.after?.expression)}`);
  }
  if (blocks.length === 0) return [];
  return ['<details><summary>Expression changes</summary>', '', '```diff', ...blocks, '```', '', '</details>', ''];
}

const levelIcon = { error: '⛔ **error**', danger: '⚠️ **danger**', warning: 'ℹ️ warning' } as const;

/**
 * The markdown of one zone's plan.
 * @example await github.comment(renderPlanMarkdown(plan))
 */
export function renderPlanMarkdown(plan: Plan): string {
  const out = [`### zonewall plan: ${plan.zone.name}`, '', `Manifest ${code(plan.manifest.file)}, ${zoneWords(plan.zone, code)}${plan.zone.plan ? ` (${plan.zone.plan})` : ''}.`, ''];
  out.push(`**${renderSummaryLine(plan.summary)}**`, '');
  const changes = plan.changes.filter((c) => c.action !== 'no-op');
  if (changes.length === 0) out.push('No changes.', '');
  else {
    out.push('| | kind | ref | id | changes |', '|---|---|---|---|---|');
    for (const c of changes) {
      const ref = c.ref !== '' ? code(c.ref) : '_unmanaged_';
      const note = c.reason !== 'new' && c.reason !== 'changed' ? ` _(${c.reason})_` : '';
      out.push(`| ${code(ActionGlyphs[c.action])} | ${c.kind} | ${cell(ref)}${note} | ${c.id !== undefined ? code(c.id) : ''} | ${cell(details(c))} |`);
    }
    out.push('', ...expressionDiffs(changes));
  }
  if (plan.findings.length > 0) {
    out.push('**Findings**', '', ...plan.findings.map((f) => `- ${levelIcon[f.level]} ${code(f.code)}: ${f.message}`), '');
  }
  if (plan.unmanaged.length > 0) {
    out.push(`<details><summary>${plan.unmanaged.length} unmanaged object(s): left alone; <code>--prune</code> deletes them</summary>`, '');
    out.push(...plan.unmanaged.slice(0, UnmanagedListLimit).map((u) => `- ${u.kind} ${code(u.id)}: ${code(u.summary)}`));
    if (plan.unmanaged.length > UnmanagedListLimit) out.push(`- … and ${plan.unmanaged.length - UnmanagedListLimit} more`);
    out.push('', '</details>', '');
  }
  if (hasChanges(plan)) out.push(renderCalls(plan.calls), '');
  return `${out.join('\n')}\n`;
}
