/**
 * The shapes of the catalog shipped with the engine: managed rulesets of the new WAF (rules with
 * categories, default actions, paranoia levels and OWASP scores) and the packages, groups and rules of
 * the previous WAF. The catalog is read-only data, the same in every zone; a zone only stores its
 * overrides (new WAF) or its modes (previous WAF).
 *
 * `expression` fields are zonewall's: the real service never publishes what a managed rule matches.
 * They are small, illustrative Rules-language expressions so that the trace operation can show a
 * match; rules without one never match in a trace.
 */
import type { PlanTier } from '../types.js';

/** Actions a managed rule can have by default (`score` = an OWASP rule that adds to the anomaly score). */
export type CatalogRuleAction = 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log' | 'score';

/** Paranoia levels of the OWASP Core Ruleset. */
export type ParanoiaLevel = 1 | 2 | 3 | 4;

/** One rule of a managed ruleset. */
export interface ManagedRule {
  /** 32 hex; real where public material shows it (see each data file). */
  readonly id: string;
  /** Defaults to `id`; the OWASP threshold rule has its real, different ref. */
  readonly ref?: string;
  readonly version: string;
  readonly description: string;
  /** Default action. */
  readonly action: CatalogRuleAction;
  /** Tags, usable as `overrides.categories[].category`. */
  readonly categories: readonly string[];
  /** Enabled by default. */
  readonly enabled: boolean;
  readonly last_updated: string;
  /** The previous WAF's rule id this rule replaces, when there is one. */
  readonly legacy_id?: string;
  /** OWASP: the paranoia level (also a `paranoia-level-N` category). */
  readonly paranoia_level?: ParanoiaLevel;
  /** OWASP: what a match adds to the request threat score. */
  readonly score?: number;
  /** OWASP 949110 only: the default anomaly score threshold; its presence allows `score_threshold` overrides. */
  readonly score_threshold?: number;
  /** zonewall: what the rule matches, for the trace operation (illustrative, see the file comment). */
  readonly expression?: string;
}

/** A managed ruleset of the new WAF. */
export interface ManagedRuleset {
  /** Real public id, the same in every account. */
  readonly id: string;
  /** zonewall's short name for manifests and messages: `managed`, `owasp`, `free`. */
  readonly alias: string;
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly last_updated: string;
  /** Cheapest plan that may deploy it (free for the Free ruleset, pro for the others). */
  readonly minimum_plan: PlanTier;
  /** True for the OWASP Core Ruleset: rules score, the threshold rule decides. */
  readonly anomaly: boolean;
  readonly rules: readonly ManagedRule[];
}

/** Modes of previous WAF rules and groups. */
export type LegacyMode = 'on' | 'off' | 'default' | 'disable' | 'simulate' | 'block' | 'challenge';

/** How a previous WAF rule behaves: an anomaly (OWASP) rule, a traditional deny rule or a traditional allow rule. */
export type LegacyRuleKind = 'anomaly' | 'deny' | 'allow';

/** One rule of a previous WAF package. */
export interface LegacyRule {
  /** Short string ids as the real service uses (`100514`, `WP0025B`, `990012`). */
  readonly id: string;
  readonly description: string;
  /** A string, as the real API returns it. */
  readonly priority: string;
  readonly kind: LegacyRuleKind;
  /** Traditional deny rules: what `default` means. */
  readonly default_mode?: 'disable' | 'simulate' | 'block' | 'challenge';
  /** Anomaly rules: the score a match adds (CRS 2.x: critical 5, error 4, warning 3, notice 2). */
  readonly score?: number;
  /** The managed ruleset rule (new WAF) that replaces it, used by the migration config. */
  readonly new_rule_id?: string;
  /** zonewall: what the rule matches, for the trace operation (illustrative). */
  readonly expression?: string;
}

/** A group of a previous WAF package. */
export interface LegacyGroup {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  /** The managed ruleset category that replaces the group (migration: group off = category disabled). */
  readonly category?: string;
  readonly rules: readonly LegacyRule[];
}

/** A package of the previous WAF. */
export interface LegacyPackage {
  readonly id: string;
  /** zonewall's short name: `cloudflare`, `owasp`. */
  readonly alias: string;
  readonly name: string;
  readonly description: string | null;
  readonly detection_mode: 'anomaly' | 'traditional';
  /** The managed ruleset of the new WAF that replaces the package. */
  readonly replaced_by: string;
  readonly groups: readonly LegacyGroup[];
}
