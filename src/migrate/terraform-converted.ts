/**
 * What a Terraform state converts into, as data: the manifest's sections, each object with the
 * resource address it came from, the notes on what was not (fully) converted, and the addresses
 * converted (for `terraform state rm`); and the resource kinds zonewall recognises. Shared by the
 * per-kind conversions (`terraform-firewall.ts`, `terraform-previous-waf.ts`, ...), the renderer and
 * adoption.
 */
import type { ManagedRuleEntry } from './managed-rules.js';
import type { ConvertedCustomRules, ConvertedRateLimitRules } from './terraform-phases.js';
import type { ExceptionSource } from './terraform-ruleset.js';
import type { ConvertedLists } from './terraform-lists.js';

/** The resource kinds zonewall converts (the type without its provider prefix). */
export const TerraformKinds = ['zone', 'filter', 'firewall_rule', 'ruleset', 'waf_package', 'waf_group', 'waf_rule', 'waf_override', 'list', 'list_item', 'rate_limit'] as const;
/** One resource kind. */
export type TerraformKind = (typeof TerraformKinds)[number];

/** Something of the state that was not (fully) converted. */
export interface ConversionNote {
  address: string;
  /** `blocker`: stops the migration until handled; `skipped`: not converted; `warning`: converted with a caveat. */
  severity: 'blocker' | 'skipped' | 'warning';
  message: string;
  /** `missing-filter`: a firewall rule whose filter is not in the state (the firewall upgrade's `cannot-carry`). */
  code?: 'missing-filter';
}

/**
 * A manifest object with the address it came from (for comments and `terraform state rm`) and, for
 * filters and firewall rules, the live id the state names (which adoption gives the key as ref).
 */
export interface Sourced<T> { key: string; address: string; value: T; id?: string }

/** The converted manifest, as data. */
export interface ConvertedManifest {
  zone: string;
  zoneId?: string;
  filters: Sourced<Record<string, unknown>>[];
  firewallRules: Sourced<Record<string, unknown>>[];
  /** The custom phase's entry point (`custom_rules`), with the live rule id of each key. */
  customRules?: ConvertedCustomRules;
  /** The rate limiting phase's entry point (`rate_limiting_rules`), with the live rule id of each key. */
  rateLimitRules?: ConvertedRateLimitRules;
  /** The managed phase's entry point: deployments and exceptions, with the live skip rule id of each exception's ref. */
  managedRules?: { address: string; entries: ManagedRuleEntry[]; exceptions: ExceptionSource[] };
  previousWaf?: {
    packages: Sourced<Record<string, unknown>>[];
    groups: Sourced<string>[];
    rules: Sourced<string>[];
  };
  /** `cloudflare_list` and `cloudflare_list_item`: the account manifest written beside the zone's. */
  lists?: ConvertedLists;
  notes: ConversionNote[];
  /** Addresses of every converted resource, for `terraform state rm`. */
  converted: string[];
}

/** The kind of a resource type, or undefined for types zonewall does not convert. */
export function kindOf(type: string): TerraformKind | undefined {
  const m = /^(?:svc|cloudflare)_(.+)$/.exec(type);
  return m !== null && (TerraformKinds as readonly string[]).includes(m[1]) ? m[1] as TerraformKind : undefined;
}
