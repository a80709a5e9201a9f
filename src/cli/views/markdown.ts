/**
 * The markdown view of a run (for pull-request comments): each zone's plan through
 * `plan/render/markdown.ts`, errors as quoted blocks, and a total line when there are several
 * zones. Renders only.
 */
import { ZonewallError } from '../../errors.js';
import { formatIssue, type ManifestIssue } from '../../manifest/index.js';
import { addSummaries, hasChanges, renderListsPlan, renderListsSummary, renderPlanMarkdown, renderSummaryLine, type ListsPlan } from '../../plan/index.js';
import type { ZoneRun } from '../commands/plan-run.js';

/**
 * The manifest errors of a run as markdown: a heading and each error as `file:line:col: path:
 * message` in a fenced block (manifest text may hold markdown), so a pull-request comment shows why
 * a manifest was not planned.
 */
function manifestErrorsMarkdown(issues: readonly ManifestIssue[]): string {
  const fence = issues.some((i) => i.message.includes('```')) ? '~~~~' : '```';
  const files = new Set(issues.map((i) => i.file)).size;
  return `### zonewall: ${issues.length} manifest error${issues.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} (not planned)\n\n${fence}\n${issues.map(formatIssue).join('\n')}\n${fence}\n`;
}

const levelIcon = { error: '⛔ **error**', danger: '⚠️ **danger**', warning: 'ℹ️ warning' } as const;

/**
 * The account manifest's lists plan as markdown, a section before the zones' (apply writes lists
 * first): the summary line, the text plan's list and item lines in a `diff` fence (glyph first, so
 * GitHub colors them), and the findings (a deleted list is a danger: apply needs `--force`).
 */
function listsMarkdown(plan: ListsPlan): string {
  const out = [`### zonewall plan: lists of account ${plan.account.name}`, '', `Account manifest \`${plan.manifest}\`.`, '', `**${renderListsSummary(plan)}**`, ''];
  if (!plan.changes.some((c) => c.action !== 'no-op')) out.push('No changes.', '');
  else {
    // The text plan: a heading line, the lists' lines, one line per finding, the summary line.
    const lines = renderListsPlan(plan).trimEnd().split('\n');
    const body = lines.slice(1, lines.length - 1 - plan.findings.length).map((line) => {
      const m = /^( *)([+~-]) (.*)$/.exec(line);
      return m === null ? line : `${m[2]} ${m[1]!.slice(2)}${m[3]!}`;
    });
    const fence = body.some((l) => l.includes('```')) ? '~~~~' : '```';
    out.push(`${fence}diff`, ...body, fence, '');
  }
  if (plan.findings.length > 0) out.push('**Findings**', '', ...plan.findings.map((f) => `- ${levelIcon[f.level]} \`${f.code}\`: ${f.message}`), '');
  return `${out.join('\n')}\n`;
}

/** The markdown of a run; manifest errors (files that were not planned) first, then the account's lists plan. */
export function renderRunMarkdown(runs: readonly ZoneRun[], issues: readonly ManifestIssue[] = [], lists?: ListsPlan): string {
  const errors = [...(issues.length > 0 ? [manifestErrorsMarkdown(issues)] : []), ...(lists !== undefined ? [listsMarkdown(lists)] : [])];
  const parts = runs.map((run) => {
    if (run.plan !== undefined) return renderPlanMarkdown(run.plan);
    const err = run.error ?? new Error('not planned');
    const code = err instanceof ZonewallError ? ` (${err.code})` : '';
    return `### zonewall plan: ${run.desired.zone}\n\n> **error**${code}: ${err.message.replace(/\n/g, '\n> ')}\n`;
  });
  if (runs.length > 1) {
    const plans = runs.flatMap((r) => (r.plan !== undefined ? [r.plan] : []));
    const changed = plans.filter((p) => hasChanges(p)).length;
    // The counts say what a comment reader would otherwise have to add up: a failed zone is not in the total.
    const counts = `${runs.length} zones: ${changed} with changes, ${plans.length - changed} up to date, ${runs.length - plans.length} failed${issues.length > 0 ? `; ${issues.length} manifest error${issues.length === 1 ? '' : 's'}` : ''}.`;
    parts.push(`**Total over ${runs.length} zones: ${renderSummaryLine(addSummaries(plans.map((p) => p.summary)))}**\n\n${counts}\n`);
  }
  return [...errors, ...parts].join('\n');
}
