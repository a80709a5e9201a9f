/**
 * The desired state of the rate limiting kind: rules of the `http_ratelimit` phase entry point, as
 * the planner compares them with the live zone (defaults filled, `cf.colo.id` added).
 */
import type { RateLimitAction, RateLimitParameters } from '../../api/index.js';
import type { SourceLocation } from '../source-location.js';

/** Actions of a rate limiting rule. */
export type DesiredRateLimitAction = RateLimitAction;

/**
 * A rule's `ratelimit` object in the API's shape (`RateLimitParameters`), defaults filled:
 * `characteristics` has `cf.colo.id` first, then the manifest's in the order written;
 * `mitigation_timeout` defaults to 0 (throttle) and `requests_to_origin` to false, the service's;
 * `counting_expression` is canonical, left out when empty (the rule's expression counts).
 */
export type DesiredRateLimit = RateLimitParameters;

/** A rule of the `http_ratelimit` phase entry point. */
export interface DesiredRateLimitRule {
  /** The manifest key; stored on the live rule as `ref`. */
  ref: string;
  action: DesiredRateLimitAction;
  /** Canonical form of the expression. */
  expression: string;
  description: string;
  enabled: boolean;
  /** A block's response, `status_code` filled (429). */
  actionParameters?: { response: { status_code: number; content_type: string; content: string } };
  ratelimit: DesiredRateLimit;
  location: SourceLocation;
  /** Where fields were written (`period`, `characteristics`, … of `ratelimit` included), for tier errors. */
  fieldLocations?: Partial<Record<string, SourceLocation>>;
}

declare module '../desired.js' {
  interface DesiredZone {
    /**
     * Rate limiting rules in evaluation order; undefined when the manifest has no
     * `rate_limiting_rules` section: the phase is left alone.
     */
    rateLimitingRules?: DesiredRateLimitRule[];
  }
}
