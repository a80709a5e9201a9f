/**
 * The engine's catalog: managed rulesets of the new WAF and packages of the previous WAF, shipped as
 * data (see the data files for which ids are real), with indexed look-ups and the API views of a
 * managed ruleset. Everything here is read-only and the same in every zone.
 */
import { CloudflareManagedRuleset } from './managed-ruleset.js';
import { ExposedCredentialsRuleset } from './exposed-credentials-ruleset.js';
import { FreeManagedRuleset } from './free-ruleset.js';
import { OwaspCoreRuleset } from './owasp-ruleset.js';
import { CloudflarePackage } from './previous-cloudflare.js';
import { OwaspPackage } from './previous-owasp.js';
import type { LegacyGroup, LegacyPackage, LegacyRule, ManagedRule, ManagedRuleset } from './types.js';

export type * from './types.js';
export { ManagedRulesetId } from './managed-ruleset.js';
export { FreeRulesetId } from './free-ruleset.js';
export { ExposedCredentialsRulesetId } from './exposed-credentials-ruleset.js';
export { OwaspRulesetId, OwaspThresholdRuleId, OwaspScoreThresholds, OwaspThresholdActions } from './owasp-ruleset.js';
export { CloudflarePackageId } from './previous-cloudflare.js';
export { OwaspPackageId, LegacyOwaspThresholdRuleId, LegacyOwaspThresholds } from './previous-owasp.js';
export { managedRulesetView, managedRuleView } from './views.js';

/** Every managed ruleset the engine ships, in the order lists show them. */
export const ManagedRulesets: readonly ManagedRuleset[] = [CloudflareManagedRuleset, OwaspCoreRuleset, FreeManagedRuleset, ExposedCredentialsRuleset];

/** Every package of the previous WAF, in the order lists show them. */
export const PreviousWafPackages: readonly LegacyPackage[] = [CloudflarePackage, OwaspPackage];

interface RulesetIndex {
  rules: Map<string, ManagedRule>;
  categories: Set<string>;
}
const rulesetIndex = new Map<string, RulesetIndex>();
for (const rs of ManagedRulesets) {
  rulesetIndex.set(rs.id, {
    rules: new Map(rs.rules.map((r) => [r.id, r])),
    categories: new Set(rs.rules.flatMap((r) => r.categories)),
  });
}

/** A managed ruleset by id (or zonewall alias: `managed`, `owasp`, `free`). */
export function findManagedRuleset(idOrAlias: string): ManagedRuleset | undefined {
  return ManagedRulesets.find((rs) => rs.id === idOrAlias || rs.alias === idOrAlias);
}

/** A rule of a managed ruleset by id. */
export function findManagedRule(ruleset: ManagedRuleset, ruleId: string): ManagedRule | undefined {
  return rulesetIndex.get(ruleset.id)?.rules.get(ruleId);
}

/** Whether a category (tag) is carried by at least one rule of the ruleset. */
export function hasCategory(ruleset: ManagedRuleset, category: string): boolean {
  return rulesetIndex.get(ruleset.id)?.categories.has(category) ?? false;
}

/** Every category of a ruleset, sorted. */
export function rulesetCategories(ruleset: ManagedRuleset): string[] {
  return [...(rulesetIndex.get(ruleset.id)?.categories ?? [])].sort();
}

/** A located previous WAF rule: the rule with its group and package. */
export interface LocatedLegacyRule {
  pkg: LegacyPackage;
  group: LegacyGroup;
  rule: LegacyRule;
}

const legacyRuleIndex = new Map<string, LocatedLegacyRule>();
const legacyGroupIndex = new Map<string, { pkg: LegacyPackage; group: LegacyGroup }>();
for (const pkg of PreviousWafPackages) {
  for (const group of pkg.groups) {
    legacyGroupIndex.set(`${pkg.id}/${group.id}`, { pkg, group });
    for (const rule of group.rules) legacyRuleIndex.set(`${pkg.id}/${rule.id}`, { pkg, group, rule });
  }
}

/** A previous WAF package by id (or alias `cloudflare`, `owasp`). */
export function findPackage(idOrAlias: string): LegacyPackage | undefined {
  return PreviousWafPackages.find((p) => p.id === idOrAlias || p.alias === idOrAlias);
}

/** A group of a previous WAF package by id. */
export function findGroup(pkg: LegacyPackage, groupId: string): LegacyGroup | undefined {
  return legacyGroupIndex.get(`${pkg.id}/${groupId}`)?.group;
}

/** A rule of a previous WAF package by id, with its group. */
export function findLegacyRule(pkg: LegacyPackage, ruleId: string): LocatedLegacyRule | undefined {
  return legacyRuleIndex.get(`${pkg.id}/${ruleId}`);
}

/** A group of any package by id (URI-based overrides name groups without their package). */
export function findAnyGroup(groupId: string): { pkg: LegacyPackage; group: LegacyGroup } | undefined {
  for (const pkg of PreviousWafPackages) {
    const found = legacyGroupIndex.get(`${pkg.id}/${groupId}`);
    if (found) return found;
  }
  return undefined;
}

/** A rule of any package by id (URI-based overrides name rules without their package). */
export function findAnyLegacyRule(ruleId: string): LocatedLegacyRule | undefined {
  for (const pkg of PreviousWafPackages) {
    const found = legacyRuleIndex.get(`${pkg.id}/${ruleId}`);
    if (found) return found;
  }
  return undefined;
}

/** The managed rule that replaces a previous WAF rule, if any. */
export function replacementOf(pkg: LegacyPackage, rule: LegacyRule): ManagedRule | undefined {
  const rs = findManagedRuleset(pkg.replaced_by);
  return rs && rule.new_rule_id ? findManagedRule(rs, rule.new_rule_id) : undefined;
}

/** What a previous WAF rule matches in a trace: its own expression, else its replacement's. */
export function legacyRuleExpression(pkg: LegacyPackage, rule: LegacyRule): string | undefined {
  return rule.expression ?? replacementOf(pkg, rule)?.expression;
}

/** The allowed modes of a previous WAF rule (reference §5 table). */
export function allowedModes(pkg: LegacyPackage, rule: LegacyRule): string[] {
  if (pkg.detection_mode === 'anomaly' || rule.kind === 'allow') return ['on', 'off'];
  return ['default', 'disable', 'simulate', 'block', 'challenge'];
}

/** A rule's mode at the package defaults: `default` for deny rules, `on` otherwise. */
export function defaultRuleMode(pkg: LegacyPackage, rule: LegacyRule): string {
  return allowedModes(pkg, rule).includes('default') ? 'default' : 'on';
}
