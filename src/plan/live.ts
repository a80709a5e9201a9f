/**
 * The live state of a zone as the planner sees it. These are the v4 API's JSON shapes (snake_case,
 * as the service returns them), so providers pass what they read straight through; the engine
 * produces the same shapes. Only `plan` and `providers` use these types.
 */

/** Firewall rule actions, in the service's precedence order (tie-break for equal priority). */
export const FirewallActions = ['log', 'bypass', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block'] as const;
/** One firewall rule action. */
export type FirewallAction = (typeof FirewallActions)[number];

/** Products a `bypass` rule can skip. */
export const BypassProducts = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'] as const;
/** One bypassable product. */
export type BypassProduct = (typeof BypassProducts)[number];

/** Plan tiers of a zone. */
export const PlanTiers = ['free', 'pro', 'business', 'enterprise'] as const;
/** One plan tier. */
export type PlanTier = (typeof PlanTiers)[number];

/** A zone's identity. */
export interface LiveZoneInfo {
  id: string;
  name: string;
  /** Known for the embedded engine and `zonewall serve`; may be absent on other services. */
  plan?: PlanTier;
}

/** A filter as the filters API returns it. */
export interface LiveFilter {
  id: string;
  expression: string;
  paused: boolean;
  description?: string;
  ref?: string;
  /**
   * zonewall engine extension: true for a filter created inline by the simplified flow, which
   * refuses PUT and DELETE. The real service does not expose this: absent means false when the
   * zone's `filterLocks` is `reported`, and "not known" when it is `unknown`.
   */
  locked?: boolean;
}

/** A firewall rule as the firewall rules API returns it. */
export interface LiveFirewallRule {
  id: string;
  action: FirewallAction;
  priority: number | null;
  paused: boolean;
  description?: string;
  ref?: string;
  products?: BypassProduct[];
  /** The referenced filter, or `{ id, deleted: true }` when it is gone. */
  filter: LiveFilter | { id: string; deleted: true };
  created_on?: string;
  modified_on?: string;
}

/** Overrides of an `execute` rule: ruleset, category (tag) and rule level. */
export interface ManagedOverrides {
  action?: string;
  enabled?: boolean;
  categories?: { category: string; action?: string; enabled?: boolean }[];
  rules?: { id: string; action?: string; enabled?: boolean; score_threshold?: number }[];
}

/** Fields every rule of the `http_request_firewall_managed` entry point has, whatever its action. */
interface EntrypointRuleFields {
  id?: string;
  version?: string;
  expression: string;
  description?: string;
  ref?: string;
  enabled: boolean;
  last_updated?: string;
}

/** `action_parameters` of an `execute` rule: the managed ruleset it deploys, with overrides. */
export interface ExecuteParameters {
  id: string;
  version?: string;
  overrides?: ManagedOverrides;
}

/**
 * `action_parameters` of a `skip` rule (an exception), exactly one of: `ruleset: "current"` skips
 * the rules after it in the entry point; `rulesets` skips executing those managed rulesets; `rules`
 * skips single rules, by managed ruleset id.
 */
export type SkipParameters =
  | { ruleset: 'current'; rulesets?: never; rules?: never }
  | { rulesets: string[]; ruleset?: never; rules?: never }
  | { rules: Record<string, string[]>; ruleset?: never; rulesets?: never };

/** An entry point rule that deploys (executes) a managed ruleset. */
export interface ExecuteEntrypointRule extends EntrypointRuleFields {
  action: 'execute';
  action_parameters: ExecuteParameters;
}

/**
 * An entry point rule that skips managed rules for the requests it matches, e.g. one the migration
 * made of a firewall rule that bypassed the previous WAF. The manifest cannot express these, so
 * zonewall never writes one: the planner keeps them in place, unmanaged.
 */
export interface SkipEntrypointRule extends EntrypointRuleFields {
  action: 'skip';
  action_parameters: SkipParameters;
  /** Whether requests that match are logged (skip rules only). */
  logging?: { enabled: boolean };
}

/** One rule of the `http_request_firewall_managed` entry point: an `execute` or a `skip`. */
export type EntrypointRule = ExecuteEntrypointRule | SkipEntrypointRule;

/** Whether an entry point rule executes a managed ruleset (narrows its parameters). */
export function isExecuteRule(r: EntrypointRule): r is ExecuteEntrypointRule {
  return r.action === 'execute';
}

/** The zone's `http_request_firewall_managed` entry point ruleset. */
export interface LiveEntrypoint {
  id: string;
  name: string;
  description?: string;
  kind: 'zone';
  phase: 'http_request_firewall_managed';
  version: string;
  last_updated?: string;
  rules: EntrypointRule[];
}

/** Actions of a WAF custom rule (phase `http_request_firewall_custom`). */
export const CustomRuleActions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip'] as const;

/** `action_parameters` of a custom rule: a block `response`, or what a skip rule skips. */
export interface CustomRuleParameters {
  response?: { status_code: number; content_type: string; content: string };
  ruleset?: 'current';
  phases?: string[];
  products?: string[];
}

/** A rule of the `http_request_firewall_custom` entry point, as the Rulesets API returns it. */
export interface LiveCustomRule {
  id: string;
  version?: string;
  /** The API allows other actions in other phases; the planner compares the string. */
  action: string;
  expression: string;
  description?: string;
  enabled: boolean;
  ref?: string;
  logging?: { enabled: boolean };
  action_parameters?: CustomRuleParameters;
  last_updated?: string;
}

/** The zone's `http_request_firewall_custom` entry point ruleset. */
export interface LiveCustomEntrypoint {
  id: string;
  name: string;
  description?: string;
  kind: 'zone';
  phase: 'http_request_firewall_custom';
  version: string;
  last_updated?: string;
  rules: LiveCustomRule[];
}

/** A custom rule as a write sends it: server-filled fields left out; `id` keeps a rule in a PUT. */
export interface CustomRuleBody {
  id?: string;
  ref?: string;
  action: string;
  expression: string;
  description?: string;
  enabled: boolean;
  logging?: { enabled: boolean };
  action_parameters?: CustomRuleParameters;
}

/**
 * A phase entry point ruleset as every Rulesets API write answers it: what the writes of any rules
 * phase need from the answer (its id, version, and each rule's id and ref).
 */
export interface LiveRuleset<R extends { id?: string; ref?: string } = { id?: string; ref?: string }> {
  id: string;
  name: string;
  description?: string;
  kind: string;
  phase: string;
  version: string;
  last_updated?: string;
  rules: R[];
}

/** Where a single-rule POST or PATCH puts the rule (exactly one key; 1-based `index`). */
export type CustomRulePosition = { before: string } | { after: string } | { index: number };

/** A package of the previous WAF. */
export interface LiveWafPackage {
  id: string;
  name: string;
  description?: string | null;
  detection_mode: 'anomaly' | 'traditional';
  zone_id?: string;
  status?: string;
  sensitivity?: 'high' | 'medium' | 'low' | 'off';
  action_mode?: 'simulate' | 'block' | 'challenge';
}

/** A group of the previous WAF. */
export interface LiveWafGroup {
  id: string;
  name: string;
  description?: string | null;
  mode: 'on' | 'off';
  rules_count?: number;
  modified_rules_count?: number;
  package_id: string;
  allowed_modes?: ('on' | 'off')[];
}

/** A rule of the previous WAF. */
export interface LiveWafRule {
  id: string;
  description?: string;
  priority?: string;
  group: { id: string; name: string };
  package_id: string;
  mode: string;
  allowed_modes: string[];
  default_mode?: string;
}

/** A URI-based WAF override of the previous WAF (blocks migration while it exists). */
export interface LiveWafOverride {
  id: string;
  description?: string | null;
  urls: string[];
  priority?: number;
  paused?: boolean;
}

/** The previous WAF of a zone that has not finished migrating. */
export interface LivePreviousWaf {
  packages: LiveWafPackage[];
  groups: LiveWafGroup[];
  rules: LiveWafRule[];
  overrides: LiveWafOverride[];
}

/** A Page Rule action of the subset zonewall manages (seed 002): `disable_security`, or `waf` on/off. */
export type PageRuleAction = { id: 'disable_security'; value?: never } | { id: 'waf'; value: 'on' | 'off' } | { id: string; value?: unknown };

/** A Page Rule as `GET /zones/{zone_id}/pagerules` returns it (no ref: matched by its URL target). */
export interface LivePageRule {
  id: string;
  targets: { target: 'url'; constraint: { operator: string; value: string } }[];
  actions: PageRuleAction[];
  priority: number;
  status: 'active' | 'disabled';
  created_on?: string;
  modified_on?: string;
}

/** The body of a Page Rule create or update. */
export interface PageRuleBody {
  targets: { target: 'url'; constraint: { operator: 'matches'; value: string } }[];
  actions: PageRuleAction[];
  priority: number;
  status: 'active' | 'disabled';
}

/** Which WAF versions are active: the seed's states `previous only`, `both`, `new only`. */
export type WafState = 'previous_only' | 'both' | 'new_only';

/** The migration status operation's answer. */
export interface LiveMigrationStatus {
  migration_state: string;
  old_waf_status: 'enabled' | 'disabled';
  new_waf_status: 'enabled' | 'disabled';
  /** zonewall engine field: the seed's state, derived by providers when the service lacks it. */
  waf_state: WafState;
}

/**
 * Sections of a zone that a read may leave out when neither the manifest nor the zone's status
 * needs them (filters and firewall rules are always read). A section left out is `null` in the
 * `LiveZone`, and `LiveZone.sections` says which were read.
 */
export type LiveSection = 'migration' | 'entrypoint' | 'custom_rules' | 'previous_waf' | 'page_rules' | 'migration_config';

/**
 * Every optional section, in the order a read resolves them (the status first: others depend on it).
 * `migration_config` is read only when named, never as part of "all".
 */
export const LiveSections: readonly LiveSection[] = ['migration', 'entrypoint', 'custom_rules', 'previous_waf', 'page_rules', 'migration_config'];

/** Everything the planner needs to know about one zone, read in one pass. */
export interface LiveZone {
  zone: LiveZoneInfo;
  filters: LiveFilter[];
  firewallRules: LiveFirewallRule[];
  /** null when the zone has no entry point for the phase yet. */
  entrypoint: LiveEntrypoint | null;
  /**
   * The `http_request_firewall_custom` entry point: null when the zone has none yet (404 10003);
   * undefined when it was not read (a provider or test fixture that predates custom rules).
   */
  customEntrypoint?: LiveCustomEntrypoint | null;
  /** null once the zone has migrated (the previous WAF's APIs no longer answer). */
  previousWaf: LivePreviousWaf | null;
  migration: LiveMigrationStatus | null;
  /**
   * The service's proposed new WAF configuration ("Get new WAF configuration"), read only when the
   * plan may take a migration step (section `migration_config`, read only when named) and the zone has not
   * finished migrating: a step PUTs it (skip rules included), as `zonewall migrate` does. Undefined
   * when not read; null when the service has none for the zone.
   */
  migrationConfig?: EntrypointBody | null;
  /** The zone's Page Rules; undefined when the service has no Page Rules API for the zone. */
  pageRules?: LivePageRule[];
  /** The optional sections this read asked for; absent means all of them. */
  sections?: readonly LiveSection[];
  /**
   * Whether the service marks simplified-flow filters (`locked`, a zonewall extension): `unknown`
   * for a service with the real API's shapes only; absent means `reported`.
   */
  filterLocks?: 'reported' | 'unknown';
}

/** Bodies the planner asks providers to send. */
export interface FilterBody {
  expression: string;
  paused: boolean;
  description?: string;
  ref?: string;
}

/** A firewall rule body for the recommended flow: the filter by id. */
export interface FirewallRuleBody {
  action: FirewallAction;
  priority: number | null;
  paused: boolean;
  description?: string;
  ref?: string;
  products?: BypassProduct[];
  filter: { id: string };
}

/** The body of a PUT of the entry point. */
export interface EntrypointBody {
  name?: string;
  description?: string;
  rules: EntrypointRule[];
}
