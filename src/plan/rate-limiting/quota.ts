/**
 * The rate limiting rule quota (every rule of the phase counts, enabled or not), checked against
 * the phase once its writes ran: the PUT's list, or the live list after the single-rule calls.
 */
import { RateLimitTiers } from '../../api/index.js';
import type { DesiredZone } from '../../manifest/index.js';
import type { Finding } from '../finding.js';
import type { LiveZone, PlanTier } from '../live.js';
import type { PhaseWrite } from '../write.js';
import { finding } from './findings.js';

/** The `tier` finding when the phase would hold more rules than the plan allows. */
export function rateLimitQuota(tier: PlanTier, { desired, live }: { desired: DesiredZone; live: LiveZone }, write: PhaseWrite | undefined): Finding[] {
  const quota = RateLimitTiers[tier].rules;
  if (write === undefined || (desired.rateLimitingRules ?? []).length > quota) return [];
  const count = write.strategy === 'put'
    ? write.body.rules.length
    : (live.rateLimitEntrypoint?.rules.length ?? 0) + write.ops.filter((o) => o.op === 'create').length - write.ops.filter((o) => o.op === 'delete').length;
  if (count <= quota) return [];
  return [finding('tier', `rate_limiting_rules: the ${tier} plan allows ${quota} rate limiting rules (disabled rules count too), and the phase would hold ${count} (rules not in the manifest stay in place): delete rules in the zone first, or plan with --prune, or use a higher plan`, { kind: 'rate_limiting_rule' })];
}
