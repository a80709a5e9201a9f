/**
 * The Page Rules quota (every Page Rule counts, active or not), checked once the plan's deletes
 * and creates ran.
 */
import { PageRuleQuota, type DesiredZone } from '../../manifest/index.js';
import type { Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LiveZone, PlanTier } from '../live.js';
import { writesOf } from '../quota-writes.js';

/** Page Rules once the plan's deletes and creates ran. */
export function pageRulesQuota(tier: PlanTier, { desired, live }: { desired: DesiredZone; live: LiveZone }, changes: readonly Change[]): Finding[] {
  const quota = PageRuleQuota[tier];
  if (live.pageRules === undefined || (desired.pageRules ?? []).length > quota) return [];
  const writes = writesOf(changes, 'page_rule');
  const creates = writes.filter((w) => w.op === 'page_rule.create').length;
  const count = live.pageRules.length + creates - writes.filter((w) => w.op === 'page_rule.delete').length;
  if (creates === 0 || count <= quota) return [];
  const kept = count - (desired.pageRules ?? []).length;
  return [finding('tier', `page_rules: the ${tier} plan allows ${quota} Page Rules (disabled ones count too), and the zone would hold ${count} `
    + `(${kept} of them not in the manifest, left in place): delete Page Rules in the zone first, or plan with --prune, or use a higher plan`,
  { kind: 'page_rule', ...(desired.locations.page_rules !== undefined ? { location: desired.locations.page_rules } : {}) })];
}

