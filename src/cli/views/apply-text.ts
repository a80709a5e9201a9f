/**
 * Text views of an apply: the progress line on a terminal (rewritten in place from apply events),
 * and the report of each zone's apply: what was applied, what failed, what was not attempted, and
 * the way on (plan again; roll back on the embedded engine). Renders only.
 */
import type { ApplyEvent, ApplyListener, ApplyZoneResult, ChangeOutcome } from '../../apply/index.js';
import { ActionGlyphs, type Style } from '../../plan/index.js';

/** A listener drawing one progress line on `stream` (a terminal); `done()` clears it. */
export function progressLine(stream: NodeJS.WriteStream): { listener: ApplyListener; done(): void } {
  let shown = false;
  const draw = (text: string) => {
    stream.write(`\r\u001b[2K${text}`);
    shown = true;
  };
  const listener = (e: ApplyEvent) => {
    if (e.type === 'phase-start') draw(`${e.zone}: ${e.phase} 0/${e.objects}`);
    else if (e.type === 'batch-done') draw(`${e.zone}: ${e.phase} ${e.done}/${e.objects}`);
  };
  return { listener, done: () => { if (shown) stream.write('\r\u001b[2K'); shown = false; } };
}

function name(o: ChangeOutcome): string {
  return `${ActionGlyphs[o.action]} ${o.kind} ${o.ref !== '' ? `"${o.ref}"` : (o.id ?? '')}`;
}

const groups: { status: ChangeOutcome['status']; label: string }[] = [
  { status: 'applied', label: 'applied' },
  { status: 'partial', label: 'partly applied' },
  { status: 'failed', label: 'failed (not applied)' },
  { status: 'unknown', label: 'failed (outcome unknown: the answer was lost; plan again to see)' },
  { status: 'not-applied', label: 'not applied' },
];

/** The report of one zone's apply. */
export function renderApplyResult(result: ApplyZoneResult, s: Style, options: { rollbackHint: boolean; providerFlags?: string }): string {
  const count = (a: ChangeOutcome['action']) => result.outcomes.filter((o) => o.action === a && o.status === 'applied').length;
  const totals = `${count('create')} added, ${count('update')} changed, ${count('replace')} replaced, ${count('delete')} destroyed`;
  const requests = `${result.requests} API request${result.requests === 1 ? '' : 's'}`;
  if (result.ok) {
    return result.outcomes.length === 0
      ? `No changes applied to ${result.zone.name}.\n`
      : `${s.green(s.bold(`Apply complete for ${result.zone.name}:`))} ${totals} (${requests}).\n`;
  }
  const lines = [s.red(s.bold(`Apply to ${result.zone.name} stopped in phase ${result.error?.phase}: ${result.error?.message}`))];
  for (const g of groups) {
    const items = result.outcomes.filter((o) => o.status === g.status);
    if (items.length === 0) continue;
    lines.push(`  ${g.label}:`, ...items.map((o) => `    ${name(o)}`));
  }
  lines.push(`${totals} before the failure (${requests}). Run zonewall plan to see what remains${options.rollbackHint ? `; zonewall rollback --zone ${result.zone.name}${options.providerFlags ?? ''} restores the zone to before this apply` : ''}.`);
  return `${lines.join('\n')}\n`;
}
