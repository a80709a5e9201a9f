/**
 * Fixed identifiers and defaults the migration needs: the managed rulesets of the new WAF, the OWASP
 * anomaly-score rule (949110), the previous WAF's packages and defaults, and the known pairs of
 * previous-WAF vendor rule ids and their successors in the new Managed Ruleset. All values come from
 * `reference/api-facts.md` §4–§7 (the same in every account); nothing here is configurable.
 */
import { OwaspScoreThresholds } from '../api/index.js';

/**
 * The managed rulesets' ids by catalog alias, the OWASP 949110 rule, the previous WAF's package ids
 * and its OWASP thresholds, the previous WAF's defaults (which a Terraform destroy resets to): the
 * service's identifiers and defaults, from the wire contract.
 */
export {
  LegacyOwaspThresholds, ManagedRulesetIds, OwaspScoreRuleId, PreviousWafDefaults, PreviousWafPackageIds, type ManagedRulesetAlias,
} from '../api/index.js';

/** Defaults of the 949110 rule when no override is set. */
export const OwaspScoreDefaults = { action: 'block', scoreThreshold: 40, paranoiaLevel: 1 } as const;

/** OWASP score threshold levels of the new WAF (a higher level is a lower number: more sensitive). */
export const OwaspThresholds = OwaspScoreThresholds;

/** One named OWASP threshold level. */
export type OwaspThresholdLevel = keyof typeof OwaspThresholds;

/** The paranoia-level categories (tags) of the OWASP ruleset; PL n disables every level above n. */
export const ParanoiaCategories = ['paranoia-level-1', 'paranoia-level-2', 'paranoia-level-3', 'paranoia-level-4'] as const;

/** A rule of the new Managed Ruleset and its defaults. */
export interface ManagedRuleDefaults { id: string; action: string; enabled: boolean }

/**
 * Previous-WAF vendor (CloudFlare package) rule ids and the rule of the new Managed Ruleset that
 * replaces each, with that rule's defaults (api-facts §4 catalog, "legacy" column). The service
 * does not say which new rule replaces an old one, so the report can pair only these; the service's
 * other overrides are shown as carried over.
 */
export const LegacyManagedRules: Readonly<Record<string, ManagedRuleDefaults>> = {
  '100514': { id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'block', enabled: true },
  '100515B': { id: '3536f964ccc345308b6445e8dc29b753', action: 'block', enabled: true },
  '100625': { id: 'f3c07b95144e40169abed3ee901523c0', action: 'block', enabled: true },
  '100622': { id: '1ec47d7bbc9740f88e10292034ab53c5', action: 'block', enabled: true },
  '100532': { id: '0242110ae62e44028a13bf4834780914', action: 'block', enabled: true },
  '100533': { id: '920e3b10aa934194928a598a2753531e', action: 'block', enabled: true },
  '100647': { id: '8395a6bedf454601b0928d6885c293eb', action: 'block', enabled: true },
  '100079A': { id: '6ebf227e51954025919cdf17afae3d67', action: 'block', enabled: true },
  '100648': { id: '530a0370d373425e829a3d4498760cfd', action: 'block', enabled: true },
  '100700': { id: '2ce80fe815254f25b3c8f47569fe1e0d', action: 'block', enabled: true },
  '100704': { id: '6e0bfbe4b9c6454c8bd7bd24f49e5840', action: 'block', enabled: true },
  '100705': { id: 'c993997b7d904a9e89448fe6a6d43bc2', action: 'block', enabled: true },
  '100706': { id: 'f40ce742be534ba19d610961ce6311bb', action: 'block', enabled: true },
  '100007C_BETA': { id: '870cca2b874d41738019d4c3e31d972a', action: 'block', enabled: false },
  '100739': { id: '34583778093748cc83ff7b38f472013e', action: 'block', enabled: false },
};

/** The phase of the entry point the migration writes (the wire contract's). */
export { ManagedPhase } from '../api/index.js';
