/**
 * Desired state: what a manifest asks for, normalised so the planner can compare it with the live
 * zone without knowing YAML. Keys of the manifest become `ref`s; expressions are in canonical form
 * (`format(parse(x))` of `src/expr`); defaults are filled in. Produced by `normalize.ts`. The zone
 * and its tier are here; each kind's objects are in its folder (`<kind>/desired.ts`).
 */
import type { DesiredCustomRule } from './custom-rules/desired.js';
import type { DesiredFilter, DesiredFirewallRule } from './firewall/desired.js';
import type { DesiredManagedRuleset } from './managed-rules/desired.js';
import type { DesiredWafMigration } from './migration/desired.js';
import type { DesiredPageRule } from './page-rules/desired.js';
import type { DesiredPreviousWaf } from './previous-waf/desired.js';
import type { SourceLocation } from './source-location.js';

export type { SourceLocation } from './source-location.js';
// Each kind's desired objects are defined in its folder; the planner imports them all from here.
export type * from './firewall/desired.js';
export type * from './custom-rules/desired.js';
export type * from './managed-rules/desired.js';
export type * from './previous-waf/desired.js';
export type * from './page-rules/desired.js';
export type * from './migration/desired.js';

/** Plan tiers of a zone (the same words as the service). */
export type DesiredPlanTier = 'free' | 'pro' | 'business' | 'enterprise';

/** One zone's desired state. */
export interface DesiredZone {
  /** The manifest file. */
  file: string;
  /** Zone name or id. */
  zone: string;
  /** Plan tier used when the embedded engine creates the zone (`plan:` in the manifest). */
  plan?: DesiredPlanTier;
  filters: DesiredFilter[];
  firewallRules: DesiredFirewallRule[];
  /**
   * WAF custom rules in evaluation order; undefined when the manifest has no `custom_rules`
   * section: the custom phase is left alone.
   */
  customRules?: DesiredCustomRule[];
  /** undefined when the manifest has no `managed_rules` section: the entry point is left alone. */
  managedRules?: DesiredManagedRuleset[];
  /** undefined when the manifest has no `previous_waf` section. */
  previousWaf?: DesiredPreviousWaf;
  /** undefined when the manifest has no `page_rules` section: the zone's Page Rules are left alone. */
  pageRules?: DesiredPageRule[];
  /** undefined when the manifest has no `waf_migration`. */
  wafMigration?: DesiredWafMigration;
  /** Location of top-level sections, for errors about a whole section (`waf_migration`, `previous_waf`). */
  locations: Record<string, SourceLocation>;
}
