/**
 * The engine's public data shapes: the v4 API's request, response and envelope as plain data, zone
 * identity, plan tiers and credentials scope. Everything here crosses the boundary between the HTTP
 * server, the in-process `Engine.dispatch` and each zone's stateful object, so it must stay plain
 * JSON-ish data (no classes, no functions).
 */

import type { Envelope, PlanTier } from '../api/index.js';


export { PlanTiers, type ApiMessage, type PlanTier, type ResultInfo } from '../api/index.js';

/** A zone as the engine's registry knows it. */
export interface ZoneInfo {
  /** 32 lowercase hex characters. */
  id: string;
  /** Unique among the engine's zones (stored lowercase). */
  name: string;
  plan: PlanTier;
  status: 'active';
  /** RFC 3339. */
  created_on: string;
  /** The account the zone belongs to; absent: the engine's default account (`zones/json.ts` `EngineAccount`). */
  account_id?: string;
}

/** An account as the engine's registry knows it: its zones and lists belong to it. */
export interface AccountInfo {
  /** 32 lowercase hex characters. */
  id: string;
  /** Unique among the engine's accounts. */
  name: string;
  /** The plan its lists quotas follow (an account attribute, see docs/engine.md "Lists"). */
  plan: PlanTier;
  /** RFC 3339. */
  created_on: string;
}

/** The v4 response envelope (`src/api`'s). On failure `success` is false, `result` null and `errors` non-empty. */
export type { Envelope };

/** Which zones a caller may touch: every zone, or the listed zone ids or names. */
export type AuthScope = { zones: '*' | string[] };

/** One v4 API call, in-process or parsed from HTTP by the server. */
export interface ApiRequest {
  /** GET | POST | PUT | PATCH | DELETE. */
  method: string;
  /** Relative to `/client/v4`, e.g. `/zones/<id>/filters`. */
  path: string;
  query?: URLSearchParams;
  /**
   * @internal `query` as name/value pairs, when the caller made them once for many requests (the
   * HTTP server's target cache); must hold exactly `[...query]`. Frozen: never mutate.
   */
  queryPairs?: readonly [string, string][];
  /** Parsed JSON; undefined when the request has no body. */
  body?: unknown;
  /** The caller's scope; undefined means a trusted in-process caller (all zones). */
  auth?: AuthScope;
}

/** The answer to an `ApiRequest`. */
export interface ApiResponse {
  status: number;
  body: Envelope;
  headers?: Record<string, string>;
  /** The body's JSON bytes, when they came instead of it (`wire-answer.ts`): sent as they are. */
  json?: Uint8Array;
}
