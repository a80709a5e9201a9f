/**
 * The active firewall rules quota, checked against what the apply will hold after each phase that
 * can raise the count: delete-first rules, then updates, then creates; other deletes run last.
 */
import { ActiveRuleQuota, type DesiredZone } from '../../manifest/index.js';
import type { Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LiveZone, PlanTier } from '../live.js';
import { writesOf } from '../quota-writes.js';

const active = (rules: readonly { paused: boolean }[]) => rules.reduce((n, r) => (r.paused ? n : n + 1), 0);

/** Active firewall rules after each phase that can raise the count; an error if one goes over. */
export function firewallRulesQuota(tier: PlanTier, { desired, live }: { desired: DesiredZone; live: LiveZone }, changes: readonly Change[]): Finding[] {
  const quota = ActiveRuleQuota[tier];
  const writes = writesOf(changes, 'firewall_rule');
  // Without writes the count stays what the zone holds now; a manifest over the quota by itself is
  // reported by the manifest check.
  if (writes.length === 0 || active(desired.firewallRules) > quota) return [];
  const activeById = new Map(live.firewallRules.map((r) => [r.id, !r.paused]));
  let count = active(live.firewallRules);
  for (const w of writes) if (w.op === 'firewall_rule.delete' && w.destroyFirst === true && activeById.get(w.id) === true) count--;
  const start = count;
  for (const w of writes) if (w.op === 'firewall_rule.update') count += (w.body.paused ? 0 : 1) - (activeById.get(w.id) === true ? 1 : 0);
  const afterUpdates = count;
  for (const w of writes) if (w.op === 'firewall_rule.create' && !w.body.paused) count++;
  const over = (afterUpdates > quota && afterUpdates > start) || (count > quota && count > afterUpdates);
  if (!over) return [];
  const peak = Math.max(afterUpdates, count);
  const managed = new Set(desired.firewallRules.map((r) => r.ref));
  const deleted = new Set(writes.flatMap((w) => (w.op === 'firewall_rule.delete' ? [w.id] : [])));
  const unmanaged = live.firewallRules.filter((r) => !r.paused && !managed.has(r.ref ?? '') && !deleted.has(r.id)).length;
  const deletedLast = writes.filter((w) => w.op === 'firewall_rule.delete' && w.destroyFirst !== true && activeById.get(w.id) === true).length;
  const parts = [`${unmanaged} active rule(s) not in the manifest that the plan leaves in place`];
  if (deletedLast > 0) parts.push(`${deletedLast} it deletes only after its creates`);
  return [finding('tier', `firewall_rules: the ${tier} plan allows ${quota} active firewall rules, and applying this plan needs ${peak} at once `
    + `(counting ${parts.join(', and ')}); the service would refuse the writes after creating the filters: `
    + 'pause or delete rules in the zone first, pause rules in the manifest, or use a higher plan', { kind: 'firewall_rule' })];
}

