/**
 * The burst trace (`POST /zones/{zone_id}/trace/burst`, a zonewall extension like the trace): one
 * request template sent many times on a simulated clock, through the custom rules and then the rate
 * limiting rules, and what the rate limiting rules did. Written once here: the engine answers it,
 * the providers send it, policy tests (offline too) judge it.
 */
/**
 * How a template becomes requests: `count` requests evenly spaced over `over` seconds (request
 * i, 0-based, at `i * over / count`), or one request per entry of `at` (seconds). `vary` gives
 * per-request values: request i takes entry `i mod n` of each list (all lists the same length n).
 */
export interface BurstSpec {
  count?: number;
  /** Seconds the `count` requests spread over (default 0: all at once). */
  over?: number;
  /** Explicit times in seconds from the burst's start, in order (instead of `count`/`over`). */
  at?: number[];
  vary?: BurstVary;
  /** true: the requests are served from cache (not counted by rules with `requests_to_origin`). */
  cached?: boolean;
}

/** Per-request values of a burst: each list has the burst's variant count. */
export interface BurstVary {
  ip?: string[];
  path?: string[];
  host?: string[];
  /** Header name to one value per variant. */
  headers?: Record<string, string[]>;
}

/** `POST /zones/{zone_id}/trace/burst`: `request` is the trace operation's request description. */
export interface BurstTraceRequest<Q = Record<string, unknown>> {
  request: Q;
  burst: BurstSpec;
}

/** What one rate limiting rule did over the burst. */
export interface BurstRuleOutcome {
  /** The rule's `ref`. */
  ref: string;
  action: string;
  /** 1-based number of the first request that got the action. */
  first_request: number;
  /** When that request came (seconds on the burst's clock). */
  at: number;
  /** When the action ends for that client (seconds); null for a throttle (`mitigation_timeout: 0`). */
  until: number | null;
  /** How many requests got the action. */
  requests: number;
  /** `status_code` of a block (429 unless the rule's response says otherwise). */
  status_code?: number;
}

/** The burst trace's answer. */
export interface BurstTrace {
  requests: number;
  /** Requests a rate limiting rule acted on (a `log` counts). */
  acted: number;
  /** Requests the custom rules ended (they never reach rate limiting). */
  ended_by_custom_rules: number;
  /** Requests for which a custom skip rule skipped `http_ratelimit`. */
  skipped: number;
  /** The first request that got an action, or null when none did. */
  first: BurstRuleOutcome | null;
  /** Per rule that acted, in rule order. */
  rules: BurstRuleOutcome[];
}
