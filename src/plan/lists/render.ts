/**
 * The text of a lists plan: per list its action and item counts, and the items themselves up to
 * `itemLimit` per list (`--json` has every one), then the findings and the summary line.
 */
import type { ListItemValue } from '../../api/index.js';
import type { ListChange, ListsPlan } from './diff.js';

/** Items shown per list in text. */
export const ListItemsShown = 20;

const glyph: Record<ListChange['action'], string> = { create: '+', update: '~', delete: '-', 'no-op': ' ' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function show(value: ListItemValue, comment: string | undefined): string {
  return comment === undefined ? String(value) : `${String(value)}  # ${comment}`;
}

/** The lines of one list's change. */
function changeLines(c: ListChange, limit: number): string[] {
  const counts: string[] = [];
  if (c.action === 'create' || c.action === 'delete') counts.push(plural(c.action === 'create' ? c.items.after : c.items.before, 'item'));
  else {
    if (c.added.length > 0) counts.push(`+${c.added.length}`);
    if (c.removed.length > 0) counts.push(`-${c.removed.length}`);
    if (c.commented.length > 0) counts.push(plural(c.commented.length, 'comment'));
    counts.push(`${c.items.before} -> ${c.items.after} items`);
  }
  const lines = [`  ${glyph[c.action]} list ${c.name} (${c.kind}): ${counts.join(', ')}`];
  if (c.description !== undefined) lines.push(`      description: ${JSON.stringify(c.description.before)} -> ${JSON.stringify(c.description.after)}`);
  if (c.action === 'delete') return lines;
  const rows = [
    ...c.added.map((i) => `      + ${show(i.value, i.comment)}`),
    ...c.removed.map((i) => `      - ${show(i.value, i.comment)}`),
    ...c.commented.map((i) => `      ~ ${String(i.value)} comment: ${JSON.stringify(i.before ?? '')} -> ${JSON.stringify(i.after ?? '')}`),
  ];
  lines.push(...rows.slice(0, limit));
  if (rows.length > limit) lines.push(`      ... and ${rows.length - limit} more (plan --json lists every item)`);
  return lines;
}

/** The summary line of a lists plan. */
export function renderListsSummary(plan: ListsPlan): string {
  const s = plan.summary;
  return `Lists: ${s.create} to add, ${s.update} to change, ${s.delete} to destroy; ${plural(s.itemsAdded, 'item')} to add, ${s.itemsRemoved} to remove${s.commentsChanged > 0 ? `, ${plural(s.commentsChanged, 'comment')} to change` : ''}.`;
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
