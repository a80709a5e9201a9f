/**
 * Types of a zone manifest, generated from schemas/zone-manifest.schema.json by `npm run gen`
 * (scripts/gen-types.ts, json-schema-to-typescript). Do not edit: change the schema and regenerate.
 * test/manifest/generated-types.test.ts fails when this file is stale.
 */

/**
 * A Rules language expression, for example `http.request.uri.path matches "^/api/" and ip.src ne 192.0.2.1` (at most 4096 characters). Checked offline; stored in canonical form.
 */
export type Expression = string;
/**
 * Free text shown beside the object (at most 500 characters).
 */
export type Description = string;
/**
 * A manifest key: stored on the live object as its `ref` (at most 50 characters). Starts with a letter or digit; then letters, digits, `_`, `.` and `-`.
 */
export type Key = string;
/**
 * What a managed-rules exception skips (the API's `action_parameters` of a `skip` rule) for the requests its expression matches: `current` skips every entry after it (every managed ruleset deployed later in `managed_rules`); `{ rulesets: [...] }` skips those managed rulesets (catalog aliases such as `managed`, `owasp`, or ruleset ids); `{ rules: { <alias or ruleset id>: [<rule id>...] } }` skips only those rules of those rulesets. Rulesets and rules are checked against the catalog; each named ruleset must be deployed by an entry after the exception.
 */
export type ManagedSkip =
  | 'current'
  | {
      /**
       * The managed rulesets to skip: catalog aliases (`managed`, `owasp`, `free`, `exposed_credentials`) or ruleset ids.
       */
      rulesets?: string[];
      /**
       * The managed rules to skip, by ruleset (catalog alias or ruleset id): the rule ids of each.
       */
      rules?: {
        [k: string]: string[];
      };
    };

/**
 * A zonewall manifest: the desired edge security configuration of one zone (filters, firewall rules, WAF custom rules, managed rulesets, the previous WAF and the WAF migration). Map keys become the live objects' `ref`, so plans match manifest objects to live ones by key. Add `# yaml-language-server: $schema=<path to this file>` as the first line for completion and help in editors.
 */
export interface ZoneManifest {
  /**
   * Ignored by zonewall: lets editors that read a `$schema` property find this schema.
   */
  $schema?: string;
  /**
   * The zone this manifest configures: its name (`example.com`) or its 32-character id. Each manifest configures exactly one zone; a directory of manifests may configure several.
   */
  zone: string;
  /**
   * The zone's plan tier. Used when the embedded engine creates a zone that does not exist yet (default `enterprise`), and by `zonewall validate` to check plan-dependent features offline (`log` needs enterprise, `matches` needs business or higher, `waf_migration: validation` needs enterprise, managed rulesets other than `free` need pro or higher, active firewall rules are limited to 5/20/100/1000). When a provider knows the live zone's tier, the live tier wins.
   */
  plan?: 'free' | 'pro' | 'business' | 'enterprise';
  /**
   * Shared filters, keyed by ref. A filter holds an expression and can be used by any number of firewall rules (`filter: <key>`). Two filters may not have the same expression (compared in canonical form): the service refuses duplicates.
   */
  filters?: {
    [k: string]: Filter;
  };
  /**
   * Firewall rules, keyed by ref. Key order is evaluation order: a rule without `priority` gets the previous rule's effective priority + 1 (the first rule gets 1); an explicit `priority` wins. So that key order stays true, a rule without `priority` may not share its effective priority with another rule (the service runs equal priorities in action order) nor follow a `priority: null` rule.
   */
  firewall_rules?: {
    [k: string]: FirewallRule;
  };
  /**
   * WAF custom rules: the rules of the zone's `http_request_firewall_custom` phase entry point (the Rulesets API), keyed by ref. Key order is evaluation order: the service runs custom rules top to bottom and the first terminating action (block, challenge, js_challenge, managed_challenge) ends the request's evaluation; `log` and `skip` do not. Fields mirror the rule object of the API. Leave the section out to leave the phase alone; `custom_rules: {}` manages an empty phase (live rules with refs are deleted). Plan limits: 5 rules on free, 20 on pro, 100 on business, 1000 on enterprise (all rules of the phase, enabled or not); `log` needs enterprise; `matches` needs business or higher; a custom block `response` needs pro or higher.
   */
  custom_rules?: {
    [k: string]: CustomRule;
  };
  /**
   * Rate limiting rules: the rules of the zone's `http_ratelimit` phase entry point (the Rulesets API), keyed by ref. Key order is evaluation order. They run after the custom rules (a custom `skip` with `phases: [http_ratelimit]` skips them). Fields mirror the API's rule object, with the counting fields under `ratelimit`; zonewall adds the `cf.colo.id` characteristic the API requires (counters are per data center), so never write it. Leave the section out to leave the phase alone; `rate_limiting_rules: {}` manages an empty phase. Plan limits (rules / expression fields / characteristics / counting expression / longest period / longest timeout): free 1 / path, verified bot / ip.src / no / 10 s / 10 s; pro 2 / + host, URI, full URI, query / ip.src / no / 60 s / 1 h; business 5 / + method, ip.src, user agent / ip.src or cf.unique_visitor_id / yes / 600 s / 1 day; enterprise (with Advanced Rate Limiting) 100 / every field / every characteristic / yes / 86400 s / 1 day, complexity-based (`score_per_period`) and `log`. Below Enterprise challenge actions need `mitigation_timeout: 0` and `block` a timeout above 0.
   */
  rate_limiting_rules?: {
    [k: string]: RateLimitingRule;
  };
  /**
   * The rules of the zone's `http_request_firewall_managed` entry point (the ruleset-based WAF), in execution order. An item with `ruleset` deploys a managed ruleset (one `execute` rule); an item with `skip` is a managed-rules exception (one `skip` rule) that skips, for the requests its expression matches, managed rules of the entries after it: an exception applies only to the execute entries that follow it in this list, so one placed after the entry it names is an error. Leave the section out to leave the entry point alone; `managed_rules: []` deploys nothing.
   */
  managed_rules?: ManagedRuleset[];
  previous_waf?: PreviousWaf;
  /**
   * Page Rules of the zone (the subset seed 002 names: a URL pattern with `disable_security` or `waf: on|off`), keyed by a name of your choice. Page Rules have no `ref`: a live Page Rule is matched by its URL pattern, so two entries may not have the same `url`; live Page Rules whose URL no entry has are unmanaged (left alone; `--prune` deletes them). The WAF migration turns them into skip rules of the managed phase: `disable_security` and `waf: off` skip the managed rules for the URL pattern; on a zone whose previous WAF is off, `waf: on` makes the managed rules run for its pattern only.
   */
  page_rules?: {
    [k: string]: PageRule;
  };
  /**
   * The migration from the previous WAF to managed rulesets. `none`: stay on the previous WAF. `validation` (Enterprise only): run the `managed_rules` configuration beside the previous WAF. `pending`: deploy `managed_rules` and switch the previous WAF off, which cannot be undone. Leave it out when the zone has already migrated or zonewall should not drive the migration. `validation` and `pending` need a `managed_rules` section.
   */
  waf_migration?: 'none' | 'validation' | 'pending';
}
/**
 * A filter: an expression that firewall rules (and other features of the service) refer to.
 */
export interface Filter {
  expression: Expression;
  description?: Description;
  /**
   * A paused filter matches nothing. Default false.
   */
  paused?: boolean;
  /**
   * A manifest key: stored on the live object as its `ref` (at most 50 characters). Starts with a letter or digit; then letters, digits, `_`, `.` and `-`.
   */
  renamed_from?: string;
}
/**
 * A firewall rule: an action applied to the traffic its filter matches.
 */
export interface FirewallRule {
  /**
   * What to do with matching traffic. `log` needs an Enterprise plan and does not stop evaluation; `bypass` skips the products listed in `products` and does not stop evaluation either. For equal priorities the service runs actions in the order log, bypass, allow, challenge, managed_challenge, js_challenge, block.
   */
  action: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'allow' | 'log' | 'bypass';
  /**
   * The filter: a key of `filters` (shared), or an inline filter `{ expression, description?, paused? }` whose ref is this rule's key.
   */
  filter: Key | InlineFilter;
  /**
   * Evaluation priority, 1 to 2147483647; lower runs first. Without it the rule gets the previous rule's effective priority + 1 (the first rule gets 1), so key order is evaluation order. `null` means no priority: the rule runs after every prioritised rule.
   */
  priority?: number | null;
  description?: Description;
  /**
   * A paused rule is kept but not evaluated. Default false.
   */
  paused?: boolean;
  /**
   * With `action: bypass` (required there, and allowed only there): the products to skip for matching traffic. A set: order does not matter.
   *
   * @minItems 1
   */
  products?: [
    'zoneLockdown' | 'uaBlock' | 'bic' | 'hot' | 'securityLevel' | 'rateLimit' | 'waf',
    ...('zoneLockdown' | 'uaBlock' | 'bic' | 'hot' | 'securityLevel' | 'rateLimit' | 'waf')[]
  ];
  /**
   * A manifest key: stored on the live object as its `ref` (at most 50 characters). Starts with a letter or digit; then letters, digits, `_`, `.` and `-`.
   */
  renamed_from?: string;
}
/**
 * A filter written inside its rule. Its ref is the rule's key (and it follows the rule's `renamed_from`); other rules cannot share it: move it to `filters` to share it.
 */
export interface InlineFilter {
  expression: Expression;
  description?: Description;
  /**
   * A paused filter matches nothing. Default false.
   */
  paused?: boolean;
}
/**
 * A WAF custom rule: an action applied to the requests its expression matches. Its key is stored as the rule's `ref`, so edits and reorders keep the rule's id.
 */
export interface CustomRule {
  /**
   * What to do with matching requests. `block`, `challenge`, `js_challenge` and `managed_challenge` end the evaluation (later custom rules and the managed rules phase do not run). `log` (Enterprise only) records the match and goes on. `skip` goes on without the rules, phases or products named in `action_parameters`.
   */
  action: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log' | 'skip';
  expression: Expression;
  description?: Description;
  /**
   * A disabled rule is kept in the phase but not evaluated (it still counts against the plan's rule limit). Default true.
   */
  enabled?: boolean;
  /**
   * With `action: skip` only: whether matching requests are logged in Security Events. Default `{ enabled: true }` (the service's default).
   */
  logging?: {
    /**
     * false hides the matches of this skip rule from Security Events.
     */
    enabled: boolean;
  };
  action_parameters?: CustomRuleParameters;
}
/**
 * Parameters of the action. `block` takes an optional `response`; `skip` needs at least one of `ruleset`, `phase`, `phases`, `products`. Other actions take none.
 */
export interface CustomRuleParameters {
  response?: CustomBlockResponse;
  /**
   * With `skip`: `current` skips the remaining custom rules of the phase (what a firewall rule's `allow` did).
   */
  ruleset?: 'current';
  /**
   * With `skip`: `current` skips the remaining rules of the whole phase: the remaining custom rules and any custom rulesets run later in it (zonewall manages none, so it acts like `ruleset: current`).
   */
  phase?: 'current';
  /**
   * With `skip`: later phases to skip for matching requests: `http_ratelimit` (rate limiting rules), `http_request_sbfm` (Super Bot Fight Mode), `http_request_firewall_managed` (WAF managed rules). A set: order does not matter.
   *
   * @minItems 1
   */
  phases?: [
    'http_ratelimit' | 'http_request_sbfm' | 'http_request_firewall_managed',
    ...('http_ratelimit' | 'http_request_sbfm' | 'http_request_firewall_managed')[]
  ];
  /**
   * With `skip`: products outside the Ruleset Engine to skip (what a firewall rule's `bypass` did): `zoneLockdown`, `uaBlock`, `bic`, `hot`, `securityLevel`, `rateLimit` (previous rate limiting), `waf` (previous WAF). Case-sensitive; a set.
   *
   * @minItems 1
   */
  products?: [
    'zoneLockdown' | 'uaBlock' | 'bic' | 'hot' | 'securityLevel' | 'rateLimit' | 'waf',
    ...('zoneLockdown' | 'uaBlock' | 'bic' | 'hot' | 'securityLevel' | 'rateLimit' | 'waf')[]
  ];
}
/**
 * With `block` (Pro plan or higher): the response sent instead of the WAF block page. All three fields are required.
 */
export interface CustomBlockResponse {
  /**
   * HTTP status, 400 to 499.
   */
  status_code: number;
  /**
   * The body's media type.
   */
  content_type: 'text/html' | 'text/plain' | 'application/json' | 'text/xml';
  /**
   * The body, at most 2,048 bytes (UTF-8).
   */
  content: string;
}
/**
 * A rate limiting rule: requests matching `expression` are counted per value of the `characteristics` (and per data center); once more than `requests_per_period` arrive within `period` seconds, the action applies to that client for `mitigation_timeout` seconds (0: only to the requests over the rate). Its key is stored as the rule's `ref`.
 */
export interface RateLimitingRule {
  /**
   * What to do once the rate is exceeded: `block` (HTTP 429 unless `action_parameters.response` says otherwise), `challenge`, `js_challenge`, `managed_challenge`, or `log` (Enterprise only).
   */
  action: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log';
  expression: Expression;
  description?: Description;
  /**
   * A disabled rule is kept in the phase but not evaluated (it still counts against the plan's rule limit). Default true.
   */
  enabled?: boolean;
  action_parameters?: RateLimitingParameters;
  ratelimit: RateLimit;
}
/**
 * With `block` only: the response sent instead of the default 429 page.
 */
export interface RateLimitingParameters {
  response: RateLimitingResponse;
}
/**
 * The block response. `status_code` defaults to 429.
 */
export interface RateLimitingResponse {
  /**
   * HTTP status, 400 to 499. Default 429.
   */
  status_code?: number;
  /**
   * The body's media type.
   */
  content_type: 'text/html' | 'text/plain' | 'application/json' | 'text/xml';
  /**
   * The body, at most 30 KB (30,720 bytes, UTF-8); custom rules allow 2 KB.
   */
  content: string;
}
/**
 * How requests are counted and for how long the action lasts (the API's `ratelimit` object).
 */
export interface RateLimit {
  /**
   * What a counter is kept for, besides the data center (`cf.colo.id`, which zonewall adds: do not write it): `ip.src`, `cf.unique_visitor_id` (IP with NAT support; not with `ip.src`), `http.host`, `http.request.uri.path`, `ip.src.asnum`, `ip.src.country`, `cf.bot_management.ja3_hash`, `cf.bot_management.ja4`, `http.request.headers["<lower-case name>"]`, `http.request.cookies["<name>"]`, `http.request.uri.args["<name>"]`, `http.request.body.form["<name>"]`, `lookup_json_string(http.request.body.raw, "<key>")`, `lookup_json_integer(http.request.body.raw, "<key>")`. A set: order does not matter. A missing header, cookie or argument is a counter of its own.
   *
   * @minItems 1
   */
  characteristics: [string, ...string[]];
  /**
   * The counting window, seconds; the plan caps it (free 10, pro 60, business 600, enterprise 86400).
   */
  period:
    | 10
    | 15
    | 20
    | 30
    | 40
    | 45
    | 60
    | 90
    | 120
    | 180
    | 240
    | 300
    | 480
    | 600
    | 900
    | 1200
    | 1800
    | 2400
    | 3600
    | 65535
    | 86400;
  /**
   * The action applies once a counter goes over this many requests within `period`. Exactly one of this and `score_per_period`.
   */
  requests_per_period?: number;
  /**
   * Complexity-based rate limiting (Enterprise): the action applies once the scores the origin sent in `score_response_header_name` add up to more than this within `period`.
   */
  score_per_period?: number;
  /**
   * With `score_per_period`: the response header in which the origin sends each request's score (1 to 1,000,000).
   */
  score_response_header_name?: string;
  /**
   * How long the action lasts for a client once it applies, seconds: 0 (throttle: only the requests over the rate get it), 10, 60, 120, 300, 600, 3600, 86400. Default 0, the service's. Below Enterprise challenge actions need 0 and `block` needs more than 0; the plan caps it (free 10, pro 3600, business and enterprise 86400).
   */
  mitigation_timeout?: 0 | 10 | 60 | 120 | 300 | 600 | 3600 | 86400;
  /**
   * Which requests are counted (Business and higher); left out: the rule's expression. May use response fields such as `http.response.code` (counting then happens on the response).
   */
  counting_expression?: string;
  /**
   * true: count only requests that reach the origin (cached ones are not counted). Must be false when the expression or the counting expression uses a custom list (the service's managed `$cf.*` lists are not held to it). Default false.
   */
  requests_to_origin?: boolean;
}
/**
 * One rule of the `http_request_firewall_managed` entry point: either a managed ruleset deployment (`ruleset`, with its overrides) or a managed-rules exception (`skip`, with `ref` and `expression`). Exactly one of `ruleset` and `skip` is given.
 */
export interface ManagedRuleset {
  skip?: ManagedSkip;
  /**
   * Exceptions (`skip`) only: whether requests the exception matches are logged in Security Events. Default `{ enabled: true }` (the service's default).
   */
  logging?: {
    /**
     * false hides the matches of this exception from Security Events.
     */
    enabled: boolean;
  };
  /**
   * The managed ruleset: a catalog alias (`managed`: Cloudflare Managed Ruleset, `owasp`: Cloudflare OWASP Core Ruleset, `free`: Cloudflare Free Managed Ruleset, `exposed_credentials`: Exposed Credentials Check) or a 32-character hexadecimal ruleset id.
   */
  ruleset?: ('managed' | 'owasp' | 'free' | 'exposed_credentials') | string;
  /**
   * A manifest key: stored on the live object as its `ref` (at most 50 characters). Starts with a letter or digit; then letters, digits, `_`, `.` and `-`.
   */
  ref?: string;
  /**
   * Whether the ruleset runs. Default true.
   */
  enabled?: boolean;
  /**
   * A Rules language expression, for example `http.request.uri.path matches "^/api/" and ip.src ne 192.0.2.1` (at most 4096 characters). Checked offline; stored in canonical form.
   */
  expression?: string;
  /**
   * Free text stored on the entry point rule.
   */
  description?: string;
  /**
   * For the OWASP ruleset: the action of the anomaly score rule (949110: Inbound Anomaly Score Exceeded), which acts when the score reaches `score_threshold`. For other rulesets: shorthand for `overrides.action`, the action of every rule of the ruleset.
   */
  action?: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log';
  overrides?: ManagedOverrides;
  /**
   * OWASP only: the paranoia level, 1 to 4. Level n disables the categories paranoia-level-(n+1) to paranoia-level-4. Leave it out for the ruleset's default.
   */
  paranoia_level?: number;
  /**
   * OWASP only: the anomaly score at which the anomaly rule acts: `low` (60 and higher), `medium` (40, the default), `high` (25), or a number.
   */
  score_threshold?: ('low' | 'medium' | 'high') | number;
}
/**
 * Overrides of a managed ruleset. Precedence: rule overrides, then category (tag) overrides, then the ruleset-level `action`/`enabled`, then the ruleset's defaults.
 */
export interface ManagedOverrides {
  /**
   * The action of every rule of the ruleset (lowest precedence).
   */
  action?: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log';
  /**
   * Enables or disables every rule of the ruleset (lowest precedence).
   */
  enabled?: boolean;
  /**
   * Overrides of every rule with a category (tag), such as `wordpress` or `paranoia-level-3`. A list, as the service writes it; each category at most once (normalised in name order).
   */
  categories?: CategoryOverride[];
  /**
   * Overrides of single rules, by rule id (highest precedence). A list, as the service writes it; each rule at most once (normalised in id order).
   */
  rules?: RuleOverride[];
}
/**
 * An override of every rule with one category (tag).
 */
export interface CategoryOverride {
  /**
   * The category (tag), for example `wordpress`.
   */
  category: string;
  /**
   * The action of the category's rules.
   */
  action?: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log';
  /**
   * Enables or disables the category's rules.
   */
  enabled?: boolean;
}
/**
 * An override of one rule of a managed ruleset.
 */
export interface RuleOverride {
  /**
   * The rule's id (32 hexadecimal characters).
   */
  id: string;
  /**
   * The rule's action.
   */
  action?: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log';
  /**
   * Enables or disables the rule.
   */
  enabled?: boolean;
  /**
   * The score threshold of an anomaly score rule (such as OWASP 949110).
   */
  score_threshold?: number;
}
/**
 * Settings of the previous (package-based) WAF, for a zone that has not finished migrating to managed rulesets. Not allowed together with `waf_migration: pending`: the previous WAF is gone once the migration finishes.
 */
export interface PreviousWaf {
  /**
   * Anomaly package settings, keyed by package alias (`owasp`: OWASP ModSecurity Core Rule Set) or package id. Only anomaly packages have sensitivity and action mode; the `cloudflare` package is traditional, so configure its groups and rules instead.
   */
  packages?: {
    [k: string]: PreviousWafPackage;
  };
  /**
   * Group modes, keyed by group id (32 hexadecimal characters): `on` or `off`.
   */
  groups?: {
    [k: string]: 'on' | 'off';
  };
  /**
   * Rule modes, keyed by rule id (such as `100048` or `WP0025B`). Anomaly and allow rules take `on`/`off`; traditional deny rules take `default`, `disable`, `simulate`, `block` or `challenge`.
   */
  rules?: {
    [k: string]: 'default' | 'disable' | 'simulate' | 'block' | 'challenge' | 'on' | 'off';
  };
}
/**
 * Settings of an anomaly package of the previous WAF.
 */
export interface PreviousWafPackage {
  /**
   * Anomaly sensitivity: `high` (the service's default), `medium`, `low`, or `off` to switch the package off.
   */
  sensitivity?: 'high' | 'medium' | 'low' | 'off';
  /**
   * What the package does with anomalous requests: `simulate` (log only), `block`, or `challenge` (the service's default).
   */
  action_mode?: 'simulate' | 'block' | 'challenge';
}
/**
 * One Page Rule: a URL pattern and the security settings it applies to matching requests. At least one of `disable_security` and `waf`.
 */
export interface PageRule {
  /**
   * The URL pattern (the Page Rule's `url` target, operator `matches`), for example `*example.com/images/*`: it matches the request's full URL (`scheme://host/path?query`), `*` matching any run of characters, case-insensitively; without a scheme it matches both http and https, and without a path it means the path `/`.
   */
  url: string;
  /**
   * The `disable_security` action: turns off the zone's security features (the previous WAF included) for matching requests. Only `true` is allowed: leave it out to not disable security.
   */
  disable_security?: true;
  /**
   * The `waf` action: `off` turns the previous WAF off for matching requests, `on` turns it on (even where the zone's WAF setting is off). It affects only the previous WAF: after the migration, `off` becomes a skip rule.
   */
  waf?: 'on' | 'off';
  /**
   * `active` (default) or `disabled`: a disabled Page Rule is kept but not applied.
   */
  status?: 'active' | 'disabled';
  /**
   * The Page Rule's priority (the service's `priority`): where URL patterns overlap, the rule with the higher number wins. Default 1.
   */
  priority?: number;
}
