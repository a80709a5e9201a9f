/**
 * Text views of the migration: the equivalence report, the list of blockers of an incompatible
 * zone with the commands that clear them, and the migration status. Pure string building; decides
 * nothing (the data comes from `report.ts`, `sequence.ts` and `status.ts`).
 */
import type { Blocker, EquivalenceReport, Verdict } from './report.js';

/** Labels of the verdicts, padded to one width in the listing. */
const VerdictLabels: Record<Verdict, string> = {
  maps: 'maps',
  'changes-meaning': 'changes meaning',
  manual: 'recreate by hand',
  differs: 'differs',
  carried: 'carried over',
};

/** The width of the verdict column. */
const LabelWidth = Math.max(...Object.values(VerdictLabels).map((l) => l.length));

/** Renders the equivalence report, one row per setting, then a summary line. */
export function renderReport(report: EquivalenceReport): string {
  const lines = [`Equivalence report for ${report.zone} (previous WAF → new WAF, previous settings from the ${report.source === 'manifest' ? 'manifest\'s previous_waf' : 'live zone'}):`];
  for (const row of report.rows) {
    const label = VerdictLabels[row.verdict].padEnd(LabelWidth);
    // A row with no previous side (carried by the service) is about what the proposal holds.
    if (row.previous === '-' && row.expected === '-') {
      lines.push(`  ${label}  ${row.subject}: ${row.proposed}`);
    } else {
      lines.push(`  ${label}  ${row.subject}: ${row.previous} → ${row.expected}`);
      if (row.proposed !== '-' && row.proposed !== row.expected) lines.push(`  ${''.padEnd(LabelWidth)}    proposed: ${row.proposed}`);
    }
    if (row.note !== undefined) lines.push(`  ${''.padEnd(LabelWidth)}    ${row.note}`);
  }
  const c = report.counts;
  lines.push(`Summary: ${c.maps} map, ${c['changes-meaning']} change meaning, ${c.manual} to recreate by hand, ${c.differs} differ, ${c.carried} carried over.`);
  return `${lines.join('\n')}\n`;
}

/**
 * Renders why a zone cannot migrate and what to do: each URI-based override, and the zonewall
 * command that deletes them (the service's delete-a-WAF-override operation). `flags` are the run's
 * provider flags (e.g. ` --state-dir .zw`), repeated so the command reaches the same zone.
 */
export function renderBlockers(zone: string, reasons: string[], blockers: Blocker[], flags = ''): string {
  const lines = [`${zone} cannot migrate yet: the service's compatibility check says it is not compatible.`];
  for (const reason of reasons) lines.push(`  reason: ${reason}`);
  if (blockers.length > 0) {
    lines.push(`URI-based WAF overrides block the migration (${blockers.length}); they must be deleted first:`);
    for (const b of blockers) {
      lines.push(`  ${b.id}  ${b.urls.join(', ')}${b.description ? `  (${b.description})` : ''}`);
    }
    lines.push('Recreate what they did as skip rules or overrides with an expression in the new WAF, then delete them with:');
    lines.push(`  zonewall migrate delete-overrides --zone ${zone} ${blockers.map((b) => b.id).join(' ')}${flags} --force`);
  } else if (reasons.length === 0) {
    lines.push('The service gave no reason. Check for more than 200 firewall rules to migrate or a firewall rule expression over 4 KB (contact support).');
  }
  return `${lines.join('\n')}\n`;
}
