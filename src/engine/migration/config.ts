/**
 * The new WAF configuration derived from a zone's previous WAF settings (the "Get new WAF
 * configuration" operation), as a pure function. The result is an entry point body in the seed's
 * shape: `name: "default"` and rules with `id`, `version` and `ref` as empty strings and `expression`
 * `"true"` for the deployments.
 *
 * 1. Firewall rules that bypass WAF managed rules (`bypass` with product `waf`) become `skip` rules
 *    that skip the rest of the entry point (`ruleset: "current"`) for the same expression, in the
 *    firewall rules' evaluation order, before the deployments; a paused rule becomes a disabled one.
 *    (In zonewall, as in the real service, such a firewall rule only bypasses the *previous* WAF.)
 * 2. The CloudFlare package becomes an `execute` of the Cloudflare Managed Ruleset. A group turned
 *    off becomes a category override disabling its category (or, for a group without one, rule
 *    overrides disabling its rules); a rule's mode becomes a rule override only where it behaves
 *    differently from the new rule's defaults (`disable` = disabled, `simulate` = `log`, `block`,
 *    `challenge`; `default` = the old rule's default mode).
 * 3. The OWASP package becomes an `execute` of the OWASP Core Ruleset with the seed's mapping table
 *    (paranoia level as category overrides, threshold and action on rule 949110). Sensitivity `off`
 *    deploys it disabled. OWASP group and rule modes are not migrated (seed).
 * 4. Page Rules that disable or enable the previous WAF become skip rules scoped to their URL
 *    patterns, after the firewall rules' (`page-rules.ts`).
 * 5. With the previous WAF switched off (zone setting `waf: off`), both deployments are disabled,
 *    unless `waf: on` Page Rules turned it on for some URLs (then a skip rule confines them there).
 */
import {
  CloudflarePackageId,
  OwaspPackageId,
  findManagedRule,
  findManagedRuleset,
  findPackage,
  type LegacyPackage,
  type LegacyRule,
  type ManagedRuleset,
} from '../catalog/index.js';
import { groupModeOf, ruleModeOf, storedActionMode, storedSensitivity, type PreviousWafSettings } from '../previous-waf/model.js';
import type { CategoryOverride, RuleOverride } from '../rulesets/types.js';
import type { PageRuleLike } from '../page-rules/index.js';
import { rulesToMigrate, type FirewallRuleLike } from './check.js';
import { mapOwaspActionMode, mapOwaspSensitivity, owaspOverrides } from './owasp-mapping.js';
import { pageRuleConfig } from './page-rules.js';
import type { ConfigRule } from './config-rule.js';

export type { ConfigRule } from './config-rule.js';

/** The derived configuration. */
export interface MigrationConfig {
  name: 'default';
  rules: ConfigRule[];
}

/** Derives the new WAF configuration (see the file comment for every step). */
export function deriveConfig(settings: PreviousWafSettings, firewallRules: readonly FirewallRuleLike[], pageRules: readonly PageRuleLike[] = []): MigrationConfig {
  const rules: ConfigRule[] = orderForEvaluation(rulesToMigrate(firewallRules)).map(skipRuleFor);
  const pages = pageRuleConfig(pageRules, settings.enabled);
  rules.push(...pages.skips);
  const wafOn = settings.enabled || pages.enablesDeployments;
  const cloudflare = findPackage(CloudflarePackageId)!;
  rules.push(deployment(cloudflare.replaced_by, wafOn, managedOverrides(settings, cloudflare)));
  const owasp = findPackage(OwaspPackageId)!;
  const sensitivity = storedSensitivity(settings, owasp);
  const mapped = mapOwaspSensitivity(sensitivity === 'off' ? null : sensitivity);
  const action = mapOwaspActionMode(storedActionMode(settings, owasp));
  rules.push(deployment(owasp.replaced_by, wafOn && sensitivity !== 'off', owaspOverrides(mapped, action)));
  return { name: 'default', rules };
}

/** Firewall rules in evaluation order: priority ascending, no priority last; stable otherwise. */
export function orderForEvaluation<T extends { priority: number | null }>(rules: readonly T[]): T[] {
  return rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => priorityKey(a.rule.priority) - priorityKey(b.rule.priority) || a.index - b.index)
    .map((x) => x.rule);
}

function priorityKey(priority: number | null): number {
  return priority === null ? Number.POSITIVE_INFINITY : priority;
}

function skipRuleFor(rule: FirewallRuleLike): ConfigRule {
  const about = rule.description ? `: ${rule.description}` : '';
  // Key order as the seed lists the rule object's fields.
  return {
    id: '', version: '',
    action: 'skip',
    // A rule whose filter was deleted matches nothing; keep it (disabled) so the user sees it.
    expression: rule.expression ?? 'false',
    description: `Migrated from firewall rule ${rule.id}${about}`.slice(0, 500),
    ref: '',
    enabled: !rule.paused && rule.expression !== undefined,
    action_parameters: { ruleset: 'current' },
    logging: { enabled: true },
  };
}

function deployment(rulesetId: string, enabled: boolean, overrides: Record<string, unknown>): ConfigRule {
  const params: Record<string, unknown> = { id: rulesetId };
  if (Object.keys(overrides).length > 0) params.overrides = overrides;
  return {
    id: '', version: '',
    action: 'execute',
    expression: 'true',
    description: '',
    ref: '',
    enabled,
    action_parameters: params as unknown as ConfigRule['action_parameters'],
  };
}

/** The Cloudflare Managed Ruleset overrides equivalent to the CloudFlare package's groups and rules. */
function managedOverrides(settings: PreviousWafSettings, pkg: LegacyPackage): Record<string, unknown> {
  const ruleset = findManagedRuleset(pkg.replaced_by)!;
  const categories: CategoryOverride[] = [];
  const rules: RuleOverride[] = [];
  for (const group of pkg.groups) {
    if (groupModeOf(settings, pkg, group) === 'off') {
      if (group.category) categories.push({ category: group.category, enabled: false });
      else for (const rule of group.rules) if (rule.new_rule_id) rules.push({ id: rule.new_rule_id, enabled: false });
      continue; // a rule of a group that is off is off, whatever its own mode
    }
    for (const rule of group.rules) {
      const override = ruleOverride(ruleset, rule, ruleModeOf(settings, pkg, rule));
      if (override) rules.push(override);
    }
  }
  const out: Record<string, unknown> = {};
  if (categories.length > 0) out.categories = categories;
  if (rules.length > 0) out.rules = rules;
  return out;
}

const legacyActions: Record<string, string> = { simulate: 'log', block: 'block', challenge: 'challenge' };

/** The override that makes the new rule behave as the old rule in `mode`; undefined when it already does. */
export function ruleOverride(ruleset: ManagedRuleset, rule: LegacyRule, mode: string): RuleOverride | undefined {
  if (rule.kind !== 'deny' || !rule.new_rule_id) return undefined;
  const target = findManagedRule(ruleset, rule.new_rule_id);
  if (!target) return undefined;
  const effective = mode === 'default' ? rule.default_mode ?? 'block' : mode;
  if (effective === 'disable') return target.enabled ? { id: target.id, enabled: false } : undefined;
  const action = legacyActions[effective];
  if (action === undefined) return undefined;
  const override: RuleOverride = { id: target.id };
  if (action !== target.action) override.action = action;
  if (!target.enabled) override.enabled = true;
  return Object.keys(override).length > 1 ? override : undefined;
}
