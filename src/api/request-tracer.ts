/**
 * The request tracer (`POST /accounts/{account_id}/request-tracer/trace`, `security-phases.md` §5):
 * a simulated request through the zone its URL names, answered as nested steps (phase → ruleset →
 * rule). The shapes are the service's (the official client's `TraceCreateParams` and
 * `TraceCreateResponse`); `zonewall` in the body and in the result is zonewall's extension (what the
 * service's tracer cannot be told or cannot tell), absent from a strict engine's answers.
 */
import type { PreviousTrace } from './trace.js';
import type { WafState } from './migration.js';

/** The tracer's route pattern. */
export const RequestTracerRoute = '/accounts/:account_id/request-tracer/trace';

/** Geodata of the traced request (`context.geoloc`). */
export interface TracerGeoloc {
  city?: string;
  continent?: string;
  is_eu_country?: boolean;
  iso_code?: string;
  latitude?: number;
  longitude?: number;
  postal_code?: string;
  region_code?: string;
  subdivision_2_iso_code?: string;
  timezone?: string;
}

/** The request body, as the service takes it. */
export interface TracerRequestBody {
  url: string;
  method: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  body?: { base64?: string; json?: unknown; plain_text?: string };
  protocol?: string;
  skip_response?: boolean;
  context?: { geoloc?: TracerGeoloc; bot_score?: number; threat_score?: number; skip_challenge?: boolean };
  /**
   * zonewall extension: what the service's tracer has no input for: the client IP (`ip.src`) and
   * any other Rules language field (`fields`). A zonewall engine honours it; the service does not.
   */
  zonewall?: TracerRequestExtension;
}

/** The body's zonewall extension. */
export interface TracerRequestExtension {
  ip?: string;
  fields?: Record<string, unknown>;
}

/** The step types zonewall's tracer reports. */
export const TraceStepTypes = { phase: 'phase', ruleset: 'ruleset', rule: 'rule', product: 'product' } as const;

/** One step of a trace (the client's `TraceItem`). */
export interface TraceStep {
  step_name?: string;
  type?: string;
  matched?: boolean;
  name?: string;
  kind?: string;
  description?: string;
  action?: string;
  action_parameters?: unknown;
  expression?: string;
  trace?: TraceStep[];
}

/** The tracer's result (the client's `TraceCreateResponse`). */
export interface TracerResult {
  /** The zone's answer: a block's status (403 or its custom response's), 403 for a challenge, else the origin's (200 in zonewall's engine, which has no origin). */
  status_code?: number;
  trace?: TraceStep[];
  /** zonewall extension (absent under `serve --strict`). */
  zonewall?: TracerResultExtension;
}

/** What the service's tracer cannot tell: the WAF state and the previous WAF's decision. */
export interface TracerResultExtension {
  waf_state: WafState;
  /** The final action (null: the request reaches the origin). */
  action: string | null;
  previous_waf?: PreviousTrace;
}

/**
 * zonewall extension (not served under `serve --strict`, where it answers 404 7003 like any
 * unknown path): several tracer bodies in one call, answered in order, each result exactly what
 * the tracer route answers for that body. The service's tracer takes one request per call.
 */
export const RequestTracerBatchRoute = '/accounts/:account_id/request-tracer/trace/batch';

/** Most requests one batch call takes. */
export const TracerBatchLimit = 1000;

/** The batch route's body. */
export interface TracerBatchBody {
  /** 1 to `TracerBatchLimit` tracer bodies, all of one zone: the one the first request's URL names. */
  requests: TracerRequestBody[];
  /** Leave out the rule steps that did not match (the phase, product and ruleset steps stay); default false. */
  matched_only?: boolean;
}

/** The batch route's result: one tracer result per request, in the body's order. */
export interface TracerBatchResult {
  results: TracerResult[];
}
