/**
 * The few catalog facts the manifest needs to resolve managed ruleset names: the aliases, the OWASP
 * anomaly score rule and its threshold levels. The engine's catalog is the source of truth; modules
 * do not import each other sideways, so the rulesets' rules and categories reach the manifest as a
 * generated copy (`generated/managed-catalog.ts`, `npm run gen`), and these names are checked
 * against it by `test/manifest/generated-catalog.test.ts` (ids are the same in every account:
 * reference/api-facts.md §4).
 */

/** Managed ruleset aliases accepted by `managed_rules[].ruleset`, and their ruleset ids. */
export const ManagedRulesetAliases = {
  managed: 'efb7b8c949ac4650a09736fc376e9aee',
  owasp: '4814384a9e5d4991b9815dcfc25d2f1f',
  free: '77454fe2d30c4220b5701f6fdfb893ba',
  exposed_credentials: 'c2e184081120413c86c3ab7e14069605',
} as const;

/** A managed ruleset alias. */
export type ManagedRulesetAlias = keyof typeof ManagedRulesetAliases;

/** The OWASP Core Ruleset's id. */
export const OwaspRulesetId = ManagedRulesetAliases.owasp;

/** The Free Managed Ruleset's id: the only managed ruleset a free zone may deploy. */
export const FreeRulesetId = ManagedRulesetAliases.free;

/** OWASP rule `949110: Inbound Anomaly Score Exceeded`: carries the score threshold and the action. */
export const OwaspAnomalyRuleId = '6179ae15870a4bb7b2d480d4843b323c';

/** OWASP score threshold levels (a higher level is more sensitive, so a lower score). */
export const OwaspScoreThresholds = { low: 60, medium: 40, high: 25 } as const;

/** The highest OWASP paranoia level; categories are `paranoia-level-1` .. `paranoia-level-4`. */
export const OwaspMaxParanoiaLevel = 4;

/** The category (tag) of the OWASP rules of one paranoia level. */
export function paranoiaCategory(level: number): string {
  return `paranoia-level-${level}`;
}

/** Resolves a ruleset alias to its id; ids pass through unchanged. */
export function resolveManagedRuleset(ruleset: string): string {
  return Object.hasOwn(ManagedRulesetAliases, ruleset)
    ? ManagedRulesetAliases[ruleset as ManagedRulesetAlias]
    : ruleset;
}
