/**
 * Wire contract of the Page Rules API (`/zones/{zone_id}/pagerules`), the subset seed 002 names:
 * URL targets (`matches`) and the actions `disable_security` and `waf` (on/off), the ones the WAF
 * migration converts into skip rules. Shapes follow the real API (the official client's `PageRule`);
 * codes the real API does not publish are zonewall's (marked). Types and constants only.
 */

/** Route patterns (`:name` = one path segment). */
export const PageRuleRoutes = {
  /** GET list, POST create. */
  pageRules: '/zones/:zone_id/pagerules',
  /** GET, PUT (replace), PATCH (edit), DELETE. */
  pageRule: '/zones/:zone_id/pagerules/:pagerule_id',
} as const;

/** The one target kind: the request's URL. */
export const PageRuleTargetKinds = ['url'] as const;
/** The one operator served: `matches` (`*` wildcards; at most `PageRuleLimits.wildcards`). */
export const PageRuleOperators = ['matches'] as const;
/** Statuses of a Page Rule. A created rule without `status` is `disabled` (real API default). */
export const PageRuleStatuses = ['active', 'disabled'] as const;
export type PageRuleStatus = (typeof PageRuleStatuses)[number];

/** Actions the engine serves (others are refused naming `/actions/N/id`). */
export const PageRuleActionIds = ['disable_security', 'waf'] as const;
export type PageRuleActionId = (typeof PageRuleActionIds)[number];

/** `{target: "url", constraint: {operator: "matches", value: "example.com/admin/*"}}`. */
export interface PageRuleTarget {
  target: 'url';
  constraint: { operator: 'matches'; value: string };
}

/** `disable_security`: turns off security features, the previous WAF among them; takes no value. */
export interface DisableSecurityAction {
  id: 'disable_security';
}

/** `waf`: the previous WAF on or off for matching URLs (it does not affect the new WAF). */
export interface WafAction {
  id: 'waf';
  value: 'on' | 'off';
}

/** One action of a Page Rule. */
export type PageRuleAction = DisableSecurityAction | WafAction;

/** A Page Rule as every response shows it. */
export interface PageRule {
  /** 32 hex, read-only. */
  id: string;
  /** Exactly one URL target. */
  targets: PageRuleTarget[];
  /** At least one action, each id at most once. */
  actions: PageRuleAction[];
  /** Higher runs first; only the first matching active Page Rule applies to a request. */
  priority: number;
  status: PageRuleStatus;
  /** RFC 3339, read-only. */
  created_on: string;
  /** RFC 3339, read-only. */
  modified_on: string;
}

/** Body of POST (create) and PUT (replace): `priority` defaults to 1, `status` to `disabled`. */
export interface PageRuleInput {
  targets: PageRuleTarget[];
  actions: PageRuleAction[];
  priority?: number;
  status?: PageRuleStatus;
}

/** Body of PATCH (edit): any non-empty subset of the input's fields. */
export type PageRulePatch = Partial<PageRuleInput>;

/** `result` of DELETE. */
export interface PageRuleDeleteResult {
  id: string;
}

/** Query parameters of the list (real): filter on `status`, sort on `order` (`priority`, the default, or `status`) in `direction` (`desc` default). `match` (`all`|`any`) is accepted. The list is not paginated. */
export const PageRuleListQuery = {
  status: PageRuleStatuses,
  order: ['priority', 'status'],
  direction: ['asc', 'desc'],
  match: ['all', 'any'],
} as const;

/** Limits: rules per plan (real figures), wildcards per URL pattern (real), URL length (zonewall). */
export const PageRuleLimits = {
  perPlan: { free: 3, pro: 20, business: 50, enterprise: 125 },
  wildcards: 4,
  urlLength: 2048,
  priorityMin: 1,
} as const;

/**
 * Error codes. 1004 and its message are real ("Page Rule validation failed: See messages for
 * details."); zonewall sends one 1004 error per reason, each with `source.pointer` naming the field
 * (`/actions/0/id`). 1002 (not found) and 1007 (quota) are zonewall's.
 *
 * | code | HTTP | condition |
 * |------|------|-----------|
 * | 1002 | 404  | no Page Rule with that id in the zone |
 * | 1004 | 400  | invalid body: unknown field or action, bad target, priority, status, duplicate target URL |
 * | 1007 | 400  | the zone's plan allows no more Page Rules |
 */
export const PageRuleErrors = {
  notFound: { code: 1002, status: 404 },
  validation: { code: 1004, status: 400 },
  quotaExceeded: { code: 1007, status: 400 },
} as const;

/** The real message that starts every 1004 error. */
export const PageRuleValidationMessage = 'Page Rule validation failed' as const;
