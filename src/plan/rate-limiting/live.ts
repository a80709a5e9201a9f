/**
 * The `http_ratelimit` entry point as the Rulesets API returns it, and the body of a rate limiting
 * rule write: the rate limiting kind's part of `LiveZone`.
 */
import type { RateLimitParameters } from '../../api/index.js';
import type { PhaseRuleBody } from '../write.js';

/** A rule of the `http_ratelimit` entry point, as the Rulesets API returns it. */
export interface LiveRateLimitRule {
  id: string;
  version?: string;
  action: string;
  expression: string;
  description?: string;
  enabled: boolean;
  ref?: string;
  action_parameters?: { response?: { status_code?: number; content_type: string; content: string } };
  /** Absent only on a rule another phase's API wrote wrongly; the planner treats it as different. */
  ratelimit?: Partial<RateLimitParameters>;
  last_updated?: string;
}

/** The zone's `http_ratelimit` entry point ruleset. */
export interface LiveRateLimitEntrypoint {
  id: string;
  name: string;
  description?: string;
  kind: 'zone';
  phase: 'http_ratelimit';
  version: string;
  last_updated?: string;
  rules: LiveRateLimitRule[];
}

/** A rate limiting rule as a write sends it. */
export interface RateLimitRuleBody extends PhaseRuleBody {
  action_parameters?: { response: { status_code: number; content_type: string; content: string } };
  ratelimit: Partial<RateLimitParameters>;
}

declare module '../live.js' {
  interface LiveZone {
    /**
     * The `http_ratelimit` entry point: null when the zone has none yet (404 10003); undefined
     * when it was not read (the manifest has no `rate_limiting_rules`).
     */
    rateLimitEntrypoint?: LiveRateLimitEntrypoint | null;
  }
  interface LiveSectionRegistry {
    rate_limiting_rules: true;
  }
}
