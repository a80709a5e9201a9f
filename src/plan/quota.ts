/**
 * The zone's quotas, checked against what the apply will actually hold, not against the manifest
 * alone: live objects the plan leaves in place (unmanaged ones, and managed ones it deletes only in
 * the last phases) count as the service counts them. A plan that passes here cannot stop at apply
 * time with a quota refusal (10200) after its first writes. The service counts:
 *
 * | quota | counts | the apply's order (`order.ts`) |
 * |---|---|---|
 * | active firewall rules | rules not paused | delete-first rules, then updates, then creates; other deletes last |
 * | custom rules | every rule of the phase, enabled or not | single-rule deletes before creates, or one PUT of the whole list |
 * | Page Rules | every Page Rule, active or not | deletes before creates |
 *
 * Filters have no quota. The manifest's own counts (`checkAgainstZone`) already report a manifest
 * over a quota by itself; these findings cover what only the live zone adds.
 */
import { ActiveRuleQuota, CustomRuleQuota, PageRuleQuota, type DesiredZone } from '../manifest/index.js';
import type { Change } from './change.js';
import { finding, type Finding } from './finding.js';
import type { LiveZone, PlanTier } from './live.js';
import type { CustomRulesWrite, Write } from './write.js';

function writesOf(changes: readonly Change[], kind: Change['kind']): Write[] {
  const out: Write[] = [];
  // No-op changes (most of a large plan) write nothing, and their frozen list is slow to iterate.
  changes.forEach((c) => { if (c.kind === kind && c.writes.length > 0) out.push(...c.writes); });
  return out;
}

const active = (rules: readonly { paused: boolean }[]) => rules.reduce((n, r) => (r.paused ? n : n + 1), 0);

/** Active firewall rules after each phase that can raise the count; an error if one goes over. */
function firewallRules(tier: PlanTier, desired: DesiredZone, live: LiveZone, changes: readonly Change[]): Finding[] {
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

/** Custom rules the phase holds once its writes ran (the PUT's list, or the live list after single-rule calls). */
function customRules(tier: PlanTier, desired: DesiredZone, live: LiveZone, write: CustomRulesWrite | null): Finding[] {
  const quota = CustomRuleQuota[tier];
  if (write === null || (desired.customRules ?? []).length > quota) return [];
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

/** Page Rules once the plan's deletes and creates ran. */
function pageRules(tier: PlanTier, desired: DesiredZone, live: LiveZone, changes: readonly Change[]): Finding[] {
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

/**
 * `tier` error findings for quotas the apply would exceed once the live zone is counted.
 * @example quotaFindings(desired, live, plan.changes, plan.customRules)
 */
export function quotaFindings(desired: DesiredZone, live: LiveZone, changes: readonly Change[], customWrite: CustomRulesWrite | null): Finding[] {
  const tier = live.zone.plan ?? desired.plan;
  if (tier === undefined) return [];
  return [...firewallRules(tier, desired, live, changes), ...customRules(tier, desired, live, customWrite), ...pageRules(tier, desired, live, changes)];
}
