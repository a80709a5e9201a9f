/**
 * The text of a lists plan: per list its action and item counts, and the items themselves up to
 * `itemLimit` per list (`--json` has every one), then the findings and the summary line.
 */
import type { ListItemValue } from '../../api/index.js';
import type { ListChange, ListCommentChange, ListsPlan } from './diff.js';

/** Items shown per list in text. */
export const ListItemsShown = 20;

const glyph: Record<ListChange['action'], string> = { create: '+', update: '~', delete: '-', 'no-op': ' ' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function show(value: ListItemValue, comment: string | undefined, excludeExact?: false): string {
  const text = excludeExact === false ? `${String(value)} (exclude_exact_hostname: false)` : String(value);
  return comment === undefined ? text : `${text}  # ${comment}`;
}

/** The lines of one item whose comment or `exclude_exact_hostname` changes. */
function changedItem(i: ListCommentChange): string[] {
  const out: string[] = [];
  if ((i.before ?? '') !== (i.after ?? '')) out.push(`      ~ ${String(i.value)} comment: ${JSON.stringify(i.before ?? '')} -> ${JSON.stringify(i.after ?? '')}`);
  if (i.excludeExactBefore !== undefined) out.push(`      ~ ${String(i.value)} exclude_exact_hostname: ${i.excludeExactBefore} -> ${i.excludeExact ?? true}`);
  return out;
}

/** The lines of one list's change. */
function changeLines(c: ListChange, limit: number): string[] {
  const counts: string[] = [];
  if (c.action === 'create' || c.action === 'delete') counts.push(plural(c.action === 'create' ? c.items.after : c.items.before, 'item'));
  else {
    if (c.added.length > 0) counts.push(`+${c.added.length}`);
    if (c.removed.length > 0) counts.push(`-${c.removed.length}`);
    const comments = c.commented.filter((i) => (i.before ?? '') !== (i.after ?? '')).length;
    const flags = c.commented.filter((i) => i.excludeExactBefore !== undefined).length;
    if (comments > 0) counts.push(plural(comments, 'comment'));
    if (flags > 0) counts.push(`${flags} exclude_exact_hostname`);
    counts.push(`${c.items.before} -> ${c.items.after} items`);
  }
  const lines = [`  ${glyph[c.action]} list ${c.name} (${c.kind}): ${counts.join(', ')}`];
  if (c.description !== undefined) lines.push(`      description: ${JSON.stringify(c.description.before)} -> ${JSON.stringify(c.description.after)}`);
  if (c.action === 'delete') return lines;
  const rows = [
    ...c.added.map((i) => `      + ${show(i.value, i.comment, i.excludeExact)}`),
    ...c.removed.map((i) => `      - ${show(i.value, i.comment, i.excludeExact)}`),
    ...c.commented.flatMap(changedItem),
  ];
  lines.push(...rows.slice(0, limit));
  if (rows.length > limit) lines.push(`      ... and ${rows.length - limit} more (plan --json lists every item)`);
  return lines;
}

/** The summary line of a lists plan. */
export function renderListsSummary(plan: ListsPlan): string {
  const s = plan.summary;
  return `Lists: ${s.create} to add, ${s.update} to change, ${s.delete} to destroy; ${plural(s.itemsAdded, 'item')} to add, ${s.itemsRemoved} to remove${s.commentsChanged > 0 ? `, ${plural(s.commentsChanged, 'comment')} to change` : ''}${s.hostnameFlagsChanged > 0 ? `, ${s.hostnameFlagsChanged} exclude_exact_hostname to change` : ''}.`;
}

/** The text of a lists plan; no-op lists are left out. */
export function renderListsPlan(plan: ListsPlan, limit: number = ListItemsShown): string {
  const lines = [`Lists of account ${plan.account.name} (${plan.manifest}):`];
  const changed = plan.changes.filter((c) => c.action !== 'no-op');
  if (changed.length === 0) lines.push('  No changes. The lists match the account manifest.');
  for (const c of changed) lines.push(...changeLines(c, limit));
  for (const f of plan.findings) lines.push(`  ${f.level}: ${f.message}`);
  lines.push(renderListsSummary(plan));
  return `${lines.join('\n')}\n`;
}
