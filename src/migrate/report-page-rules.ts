/**
 * Rows of the equivalence report for the zone's Page Rules (seed 002: "Page Rules with Disable
 * Security; Page Rules with Web Application Firewall set to Off or On" migrate to an equivalent
 * configuration). `disable_security` and `waf: off` become skip rules for the URL pattern; `waf: on`
 * needs none (the managed rules run for it). A skip rule of the proposal belongs to a Page Rule when
 * its description names the Page Rule's id or URL pattern; those are not reported again as firewall
 * rules' skip rules.
 */
import { describeSkip, isExecuteRule, pageRuleSettings, pageRuleUrl } from '../plan/index.js';
import type { EntrypointBody, LivePageRule } from '../plan/index.js';
import type { EquivalenceRow } from './report-model.js';
import { skipRuleNote } from './report-notes.js';

/** The rows, and the indexes of the proposal's rules they account for. */
export function pageRuleRows(pageRules: readonly LivePageRule[], proposal: EntrypointBody, ownManagedRules = false): { rows: EquivalenceRow[]; claimed: Set<number> } {
  const rows: EquivalenceRow[] = [];
  const claimed = new Set<number>();
  for (const pr of pageRules) {
    const s = pageRuleSettings(pr);
    if (!s.disableSecurity && s.waf === undefined) continue;
    const url = pageRuleUrl(pr);
    const previous = [s.disableSecurity ? 'disable_security' : '', s.waf !== undefined ? `waf ${s.waf}` : ''].filter((x) => x !== '').join(', ') + (pr.status === 'disabled' ? ' (disabled)' : '');
    const subject = `Page Rule ${url}`;
    const i = proposal.rules.findIndex((r, j) => !claimed.has(j) && !isExecuteRule(r) && (r.description ?? '').length > 0 && ((r.description ?? '').includes(pr.id) || (r.description ?? '').includes(url)));
    if (i >= 0) claimed.add(i);
    const skips = s.disableSecurity || s.waf === 'off';
    if (!skips) {
      rows.push({ verdict: 'maps', subject, previous, expected: 'no skip rule: the managed rules run for the URL pattern', proposed: i >= 0 ? 'a skip rule (review it)' : '-', note: 'waf: on affects only the previous WAF' });
      continue;
    }
    const rule = i >= 0 ? proposal.rules[i]! : undefined;
    rows.push(rule !== undefined && !isExecuteRule(rule)
      ? { verdict: 'maps', subject, previous, expected: 'skip rule for the URL pattern', proposed: `skip ${describeSkip(rule.action_parameters)}${rule.enabled ? '' : ' (disabled)'} when ${rule.expression}`,
        note: skipRuleNote(ownManagedRules) }
      : { verdict: 'manual', subject, previous, expected: 'skip rule for the URL pattern', proposed: '-',
        note: 'the proposal has no skip rule for this Page Rule: after the migration, add one for the URL pattern, or the managed rules run there' });
  }
  return { rows, claimed };
}
