/**
 * Migration compatibility, as pure functions: what keeps a zone from migrating (seed 002 "Errors"
 * and "Limits") and the check operation's answer.
 *
 * Blockers of the configuration: URI-based WAF overrides (any number); more than 200 firewall rules
 * to migrate; a firewall rule to migrate whose expression is over 4 KB. "Firewall rules to migrate"
 * are the ones the migration converts (seed: "firewall rules with Bypass > WAF Managed Rules"):
 * `bypass` rules whose products include `waf`, paused or not (a paused one becomes a disabled
 * exception). 4 KB is measured in UTF-8 bytes, so an expression within the filters API's 4,096
 * characters can still be over it.
 *
 * The check operation adds what the zone's state and plan say: a zone that already migrated, or a
 * Free zone (no previous WAF), is not compatible either; without `phase_two=1`, phase 1's admission
 * rules too (`phase-one.ts`). Page Rules never block phase 2: the migration converts them.
 */
import type { MigrationCheckResult } from '../../api/index.js';
import type { PlanTier } from '../types.js';
import { MigrationLimits } from './constants.js';
import { migrationStateOf, refusal, type MigrationPhase, type Refusal, type WafState } from './state-machine.js';

/** The part of a firewall rule the migration looks at. */
export interface FirewallRuleLike {
  id: string;
  action: string;
  priority: number | null;
  paused: boolean;
  description?: string;
  products?: readonly string[];
  /** The filter's expression; undefined when the filter was deleted. */
  expression: string | undefined;
}

/** Whether the migration converts this firewall rule (a bypass of WAF managed rules). */
export function bypassesWaf(rule: FirewallRuleLike): boolean {
  return rule.action === 'bypass' && (rule.products ?? []).includes('waf');
}

/** The firewall rules the migration converts. */
export function rulesToMigrate(rules: readonly FirewallRuleLike[]): FirewallRuleLike[] {
  return rules.filter(bypassesWaf);
}

/** Why the zone's configuration cannot migrate; empty when it can. */
export function configurationBlockers(
  overrideCount: number,
  firewallRules: readonly FirewallRuleLike[],
  limits: { firewallRules: number; expressionBytes: number } = MigrationLimits,
): Refusal[] {
  const out: Refusal[] = [];
  if (overrideCount > 0) {
    out.push(refusal('uriOverrides',
      `the zone has ${overrideCount} URI-based WAF override${overrideCount === 1 ? '' : 's'}, which cannot be migrated: delete ${overrideCount === 1 ? 'it' : 'them'} with DELETE /zones/{zone_id}/firewall/waf/overrides/{override_id} first`));
  }
  const toMigrate = rulesToMigrate(firewallRules);
  if (toMigrate.length > limits.firewallRules) {
    out.push(refusal('tooManyFirewallRules',
      `the zone has ${toMigrate.length} firewall rules that bypass WAF managed rules to migrate; at most ${limits.firewallRules} can be migrated: remove some or contact support`));
  }
  for (const rule of toMigrate) {
    const bytes = Buffer.byteLength(rule.expression ?? '', 'utf8');
    if (bytes > limits.expressionBytes) {
      out.push(refusal('expressionTooLong',
        `firewall rule ${rule.id} has an expression of ${bytes} bytes; at most ${limits.expressionBytes} bytes (4 KB) can be migrated: shorten it or contact support`));
    }
  }
  return out;
}

/** Everything that keeps the zone from migrating now, including its state and plan. */
export function compatibilityBlockers(state: WafState, plan: PlanTier, configuration: Refusal[]): Refusal[] {
  if (state === 'new_only') return [refusal('alreadyMigrated', 'the zone already uses the new WAF (WAF Managed Rules); there is nothing left to migrate')];
  if (plan === 'free') return [refusal('freePlan', 'Free zones have no previous WAF to migrate from; deploy the Cloudflare Free Managed Ruleset with the Rulesets API')];
  return configuration;
}

/**
 * The check operation's result: `compatible` and `migration_state` (real), the `phase` checked and
 * the `reasons` (each the code and message the migration PUT would be refused with). The reasons
 * live in the result so a successful answer keeps `errors` and `messages` empty (seed 002).
 */
export function checkResult(state: WafState, blockers: Refusal[], phase: MigrationPhase): MigrationCheckResult {
  return {
    compatible: blockers.length === 0,
    migration_state: migrationStateOf(state),
    phase,
    reasons: blockers.map((b) => ({ code: b.code, message: b.message })),
  };
}
