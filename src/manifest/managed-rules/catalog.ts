/**
 * The few catalog facts the manifest needs to resolve managed ruleset names: the aliases, the OWASP
 * anomaly score rule and its threshold levels. The engine's catalog is the source of truth; modules
 * do not import each other sideways, so the rulesets' rules and categories reach the manifest as a
 * generated copy (`generated/managed-catalog.ts`, `npm run gen`), and these names are checked
 * against it by `test/manifest/generated-catalog.test.ts` (ids are the same in every account:
 * reference/api-facts.md §4). The ruleset ids and the OWASP threshold facts are `src/api`'s.
 */
import { FreeRulesetId, ManagedRulesetIds, OwaspRulesetId, OwaspScoreRuleId, OwaspScoreThresholds, type ManagedRulesetAlias } from '../../api/index.js';

/** Managed ruleset aliases accepted by `managed_rules[].ruleset`, and their ruleset ids. */
export const ManagedRulesetAliases = {
  managed: ManagedRulesetIds.managed,
  owasp: ManagedRulesetIds.owasp,
  free: ManagedRulesetIds.free,
  exposed_credentials: ManagedRulesetIds.exposed_credentials,
} as const;

/** A managed ruleset alias (`src/api`'s). */
export type { ManagedRulesetAlias };

/** The OWASP Core Ruleset's id, and the Free Managed Ruleset's (the only managed ruleset a free zone may deploy): `src/api`'s. */
export { FreeRulesetId, OwaspRulesetId };

/** OWASP rule `949110: Inbound Anomaly Score Exceeded`: carries the score threshold and the action (`src/api`'s `OwaspScoreRuleId`). */
export const OwaspAnomalyRuleId = OwaspScoreRuleId;

/** OWASP score threshold levels (a higher level is more sensitive, so a lower score): `src/api`'s. */
export { OwaspScoreThresholds };

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
