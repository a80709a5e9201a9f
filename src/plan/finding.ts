/**
 * Findings: what a reviewer must know about a plan besides its changes. `error` findings make the
 * plan impossible to apply (the service would refuse it, or it contradicts the zone); `danger`
 * findings make apply refuse without `--force` (octoDNS's `UnsafePlan`); `warning` findings are
 * shown and change nothing.
 */
import type { ResourceKind } from './change.js';
import type { SourceLocation } from '../manifest/index.js';

/** How serious a finding is. */
export type FindingLevel = 'error' | 'danger' | 'warning';

/**
 * Every finding code.
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `duplicate-expression` | error | a filter to create has the expression of a filter the zone keeps; the service refuses duplicates |
 * | `duplicate-desired-expression` | error | two filters of the manifest have the same expression |
 * | `missing-filter` | error | a firewall rule names a filter the manifest does not declare |
 * | `tier` | error | the zone's plan tier does not allow what the manifest asks for |
 * | `unknown-previous-waf-object` | error | a previous-WAF package, group or rule the zone does not have |
 * | `invalid-previous-waf-setting` | error | a previous-WAF setting the object does not allow |
 * | `migration-blocked` | error | URI-based WAF overrides block the migration |
 * | `migration-step-unavailable` | error | apply cannot build the migration step's body (the service's proposed configuration is missing): `zonewall migrate --mode` takes it |
 * | `previous-waf-unavailable` | error | `previous_waf` on a zone whose previous WAF does not answer (migrated: run `zonewall migrate PATH --write`) |
 * | `page-rules-unavailable` | error | `page_rules` on a zone whose service has no Page Rules API |
 * | `locked-filter-duplicate` | error | a simplified-flow filter with the same expression blocks a create |
 * | `deletes-too-many` | danger | more than the threshold of managed objects would be deleted |
 * | `weakens-action` | danger | a firewall rule stops blocking (block/challenge -> log/allow/bypass), or a custom rule does (-> log/skip) |
 * | `pauses-blocking-rule` | danger | a blocking firewall rule, or a filter an active blocking rule uses, is paused |
 * | `widens-exception` | danger | an exception lets more through: an allow or bypass firewall rule unpaused, a bypass gaining products, a firewall rule turned from log to allow or bypass (or bypass to allow), a custom skip rule enabled or skipping more (phases, products, the remaining rules), a Page Rule updated or made active to switch security or the WAF off |
 * | `disables-managed-ruleset` | danger | a managed ruleset is disabled or removed from the entry point |
 * | `weakens-managed-rule` | danger | an override turns managed rules to log, disables them or raises a score threshold |
 * | `weakens-previous-waf` | danger | a previous-WAF package, group or rule stops blocking |
 * | `disables-custom-rule` | danger | a custom rule that stops traffic (block or a challenge) is disabled |
 * | `skips-managed-rules` | danger | a custom skip rule starts skipping the `http_request_firewall_managed` phase |
 * | `skip-above-block` | danger | a custom skip of the remaining rules now runs before a rule that stops traffic and ran before it |
 * | `flips-waf-migration` | danger | the WAF migration moves on (irreversible for `pending`) |
 * | `unparsable-live-expression` | warning | a live expression does not parse: it is treated as different |
 * | `migration-irreversible` | warning | the manifest asks for an earlier migration state than the zone's |
 * | `migration-unavailable` | warning | the service does not report the migration state |
 * | `duplicate-ref` | warning | two live objects carry the same ref: the extra one is deleted |
 * | `filter-still-used` | warning | a filter left the manifest but an unmanaged rule still uses it: kept |
 * | `locked-filter-orphan` | warning | a simplified-flow filter without a rule: the API can neither delete nor change it |
 * | `filter-lock-unknown` | warning | the service does not say which filters the simplified flow created; a write to one zonewall did not create may be refused (10104) |
 * | `migration-without-rules` | warning | migrating while the manifest has no `managed_rules`: the service's proposal is deployed as it is |
 */
export const FindingCodes = {
  'duplicate-expression': 'error',
  'duplicate-desired-expression': 'error',
  'missing-filter': 'error',
  tier: 'error',
  'unknown-previous-waf-object': 'error',
  'invalid-previous-waf-setting': 'error',
  'migration-blocked': 'error',
  'migration-step-unavailable': 'error',
  'previous-waf-unavailable': 'error',
  'page-rules-unavailable': 'error',
  'locked-filter-duplicate': 'error',
  'deletes-too-many': 'danger',
  'weakens-action': 'danger',
  'pauses-blocking-rule': 'danger',
  'widens-exception': 'danger',
  'disables-managed-ruleset': 'danger',
  'weakens-managed-rule': 'danger',
  'weakens-previous-waf': 'danger',
  'disables-custom-rule': 'danger',
  'skips-managed-rules': 'danger',
  'skip-above-block': 'danger',
  'flips-waf-migration': 'danger',
  'unparsable-live-expression': 'warning',
  'migration-irreversible': 'warning',
  'migration-unavailable': 'warning',
  'duplicate-ref': 'warning',
  'filter-still-used': 'warning',
  'locked-filter-orphan': 'warning',
  'filter-lock-unknown': 'warning',
  'migration-without-rules': 'warning',
} as const satisfies Record<string, FindingLevel>;

/** One finding code. */
export type FindingCode = keyof typeof FindingCodes;

/** One finding. */
export interface Finding {
  level: FindingLevel;
  code: FindingCode;
  message: string;
  /** The object it is about, when there is one. */
  kind?: ResourceKind;
  ref?: string;
  /** Where the manifest says it, when known. */
  location?: SourceLocation;
}

/** Builds a finding; the level comes from the code. */
export function finding(code: FindingCode, message: string, about: Omit<Finding, 'level' | 'code' | 'message'> = {}): Finding {
  return { level: FindingCodes[code], code, message, ...about };
}
