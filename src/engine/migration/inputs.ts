/**
 * What the migration reads from the rest of the zone: the firewall rules (through the firewall rules
 * module's store, in evaluation order) in the shape the pure migration functions take, the Page
 * Rules, and the configuration blockers computed from them and the URI-based overrides (with
 * phase 1's admission rules when the request is in phase 1).
 */
import { OwaspPackageId, findPackage } from '../catalog/index.js';
import { rulesInEvaluationOrder } from '../firewall-rules/store.js';
import { listPageRules } from '../page-rules/index.js';
import { sensitivityOf } from '../previous-waf/model.js';
import { countOverrides, loadSettings } from '../previous-waf/store.js';
import type { Sql } from '../sql.js';
import { configurationBlockers, type FirewallRuleLike } from './check.js';
import { phaseOneBlockers } from './phase-one.js';
import type { MigrationPhase, Refusal } from './state-machine.js';

/** The zone's firewall rules, in evaluation order, as the migration sees them. */
export function firewallRulesOf(sql: Sql): FirewallRuleLike[] {
  return rulesInEvaluationOrder(sql).map(({ rule, filter }) => {
    const out: FirewallRuleLike = {
      id: rule.id,
      action: rule.action,
      priority: rule.priority,
      // A paused filter stops its rules from matching as surely as pausing the rule does.
      paused: rule.paused || filter?.paused === true,
      products: rule.products,
      expression: filter?.expression,
    };
    if (rule.description !== '') out.description = rule.description;
    return out;
  });
}

/** Why the zone's configuration cannot migrate now in `phase` (empty when it can). */
export function zoneBlockers(sql: Sql, phase: MigrationPhase): Refusal[] {
  const firewallRules = firewallRulesOf(sql);
  const out = configurationBlockers(countOverrides(sql), firewallRules);
  if (phase === 1) out.push(...phaseOneOf(sql, firewallRules));
  return out;
}

/** Phase 1's reasons for the zone (see `phase-one.ts`). */
export function phaseOneOf(sql: Sql, firewallRules: readonly FirewallRuleLike[] = firewallRulesOf(sql)): Refusal[] {
  const settings = loadSettings(sql);
  return phaseOneBlockers({
    previousWafOn: settings.enabled,
    owaspSensitivity: sensitivityOf(settings, findPackage(OwaspPackageId)!),
    firewallRules,
    pageRules: listPageRules(sql),
  });
}
