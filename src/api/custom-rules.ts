/**
 * Wire contract of the custom phase's rules (`http_request_firewall_custom` entry point, the WAF
 * custom rules firewall rules became): their actions, custom block responses, the phases and
 * products a `skip` may skip, and each rule's shape as returned. The entry point and its bodies are
 * in `rulesets.ts`.
 */
import type { RuleCommonFields, RuleLogging } from './rule-fields.js';

/** Actions of the custom phase; `log` needs Enterprise (reference §2.6). */
export const CustomRuleActions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip'] as const;
export type CustomRuleAction = (typeof CustomRuleActions)[number];
/** Actions that end the request's evaluation (later phases included). */
export const TerminatingCustomActions = ['block', 'challenge', 'js_challenge', 'managed_challenge'] as const;

/** Content types of a custom block response. */
export const BlockContentTypes = ['text/html', 'text/plain', 'application/json', 'text/xml'] as const;
export type BlockContentType = (typeof BlockContentTypes)[number];

/** A custom block response (Pro and higher): all three keys required. */
export interface BlockResponse {
  /** 400..499. */
  status_code: number;
  content_type: BlockContentType;
  /** At most 2,048 bytes (UTF-8). */
  content: string;
}

/** `action_parameters` of a `block` rule (optional on the rule). */
export interface BlockParameters {
  response?: BlockResponse;
}

/** Later phases a custom-phase skip may skip. */
export const SkipPhases = ['http_ratelimit', 'http_request_sbfm', 'http_request_firewall_managed'] as const;
export type SkipPhase = (typeof SkipPhases)[number];
/**
 * The same phases in the order the service evaluates them (reference §3.4: `http_ratelimit` →
 * `http_request_firewall_managed` → `http_request_sbfm`): the order a skip's `phases`, a set, is
 * kept in once normalised.
 */
export const SkipPhaseOrder = ['http_ratelimit', 'http_request_firewall_managed', 'http_request_sbfm'] as const satisfies readonly SkipPhase[];

/** Non-Ruleset-Engine products a skip may skip (case-sensitive; same set as firewall rules' bypass). */
export const SkipProducts = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'] as const;
export type SkipProduct = (typeof SkipProducts)[number];

/**
 * `action_parameters` of a custom-phase `skip` rule: at least one key; `ruleset`, `phases` and
 * `products` combine; `phase` combines only with `products` (the client's `SkipRule` type).
 */
export interface CustomSkipParameters {
  /** `current`: skip the remaining custom rules (the old `allow`). */
  ruleset?: 'current';
  /**
   * `current`: skip the rest of the custom phase, zone custom rulesets run later in it included
   * (reference §3.3; zone level, API only). zonewall serves no zone custom rulesets, so it ends the
   * custom rules as `ruleset: "current"` does.
   */
  phase?: 'current';
  phases?: SkipPhase[];
  /** The old `bypass`. */
  products?: SkipProduct[];
}

interface CustomRuleBase extends RuleCommonFields {
  /** Only on skip rules (default `{enabled: true}` when omitted). */
  logging?: RuleLogging;
}

/** A block rule; `action_parameters` present only when a custom response is set. */
export interface BlockRule extends CustomRuleBase {
  action: 'block';
  action_parameters?: BlockParameters;
}

/** A challenge or log rule: no parameters. */
export interface PlainCustomRule extends CustomRuleBase {
  action: 'challenge' | 'js_challenge' | 'managed_challenge' | 'log';
}

/** A skip rule. */
export interface SkipRule extends CustomRuleBase {
  action: 'skip';
  action_parameters: CustomSkipParameters;
}

/** One custom rule as returned. */
export type CustomRule = BlockRule | PlainCustomRule | SkipRule;
