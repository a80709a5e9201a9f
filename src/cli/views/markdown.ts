/**
 * The markdown view of a run (for pull-request comments): each zone's plan through
 * `plan/render/markdown.ts`, errors as quoted blocks, and a total line when there are several
 * zones. Renders only.
 */
import { ZonewallError } from '../../errors.js';
import { addSummaries, renderPlanMarkdown, renderSummaryLine } from '../../plan/index.js';
import type { ZoneRun } from '../commands/plan-run.js';

/** The markdown of a run. */
export function renderRunMarkdown(runs: readonly ZoneRun[]): string {
  const parts = runs.map((run) => {
    if (run.plan !== undefined) return renderPlanMarkdown(run.plan);
    const err = run.error ?? new Error('not planned');
    const code = err instanceof ZonewallError ? ` (${err.code})` : '';
    return `### zonewall plan: ${run.desired.zone}\n\n> **error**${code}: ${err.message.replace(/\n/g, '\n> ')}\n`;
  });
  if (runs.length > 1) {
    const plans = runs.flatMap((r) => (r.plan !== undefined ? [r.plan] : []));
    parts.push(`**Total over ${runs.length} zones: ${renderSummaryLine(addSummaries(plans.map((p) => p.summary)))}**\n`);
  }
  return parts.join('\n');
}
