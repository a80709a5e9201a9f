/**
 * The custom rules quota (every rule of the phase counts, enabled or not), checked against the
 * phase once its writes ran: the PUT's list, or the live list after the single-rule calls.
 */
import { CustomRuleQuota, type DesiredZone } from '../../manifest/index.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LiveZone, PlanTier } from '../live.js';
import type { PhaseWrite } from '../write.js';

/** Custom rules the phase holds once its writes ran (the PUT's list, or the live list after single-rule calls). */
export function customRulesQuota(tier: PlanTier, { desired, live }: { desired: DesiredZone; live: LiveZone }, write: PhaseWrite | undefined): Finding[] {
  const quota = CustomRuleQuota[tier];
  if (write === undefined || (desired.customRules ?? []).length > quota) return [];
  const count = write.strategy === 'put'
    ? write.body.rules.length
    : (live.customEntrypoint?.rules.length ?? 0) + write.ops.filter((o) => o.op === 'create').length - write.ops.filter((o) => o.op === 'delete').length;
  const creates = write.strategy === 'put' || write.ops.some((o) => o.op === 'create');
  if (count <= quota || !creates) return [];
  const kept = count - (desired.customRules ?? []).length;
  return [finding('tier', `custom_rules: the ${tier} plan allows ${quota} custom rules (disabled rules count too), and the phase would hold ${count} `
    + `(${kept} of them rules not in the manifest that the plan leaves in place): delete rules in the zone first, or plan with --prune, or use a higher plan`,
  { kind: 'custom_rule' })];
}

