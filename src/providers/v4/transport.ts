/**
 * The seam between the shared v4 client and the two ways of reaching a service: one request in,
 * one response (status, envelope, headers) out. The engine transport calls `Engine.dispatch`
 * in-process; the HTTP transport sends it with undici (auth, timeouts, retries, rate limit). The
 * envelope types are the wire contract's (`src/api`), which the engine's server answers with.
 */

import type { Envelope, HttpMethod } from '../../api/index.js';

export type { ApiMessage, Envelope, HttpMethod, ResultInfo } from '../../api/index.js';

/** One v4 call; `path` is relative to the API base (`/zones/<id>/filters`). */
export interface TransportRequest {
  method: HttpMethod;
  path: string;
  query?: URLSearchParams;
  /** JSON-serialisable body; undefined for none. */
  body?: unknown;
}

/** The service's answer to one call (after any retries the transport made). */
export interface TransportResponse {
  status: number;
  body: Envelope;
  /** Lowercase header names. */
  headers: Record<string, string>;
}

/** Sends v4 calls. Implementations count every request they make in `stats.requests`. */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /**
   * True when the service cannot change while it is read (an embedded engine open read-only with no
   * writer beside it): the pages of one list then never overlap, and are taken without looking for
   * an item read twice. Absent: it may change between two pages.
   */
  readonly fixed?: boolean;
  /**
   * True when the answers come from zonewall's own engine in this process: their shapes are not
   * checked (`answer-shape.ts`). Absent: every answer the provider reads is checked.
   */
  readonly trusted?: boolean;
  /** Requests made so far (HTTP requests including retries, or in-process dispatches). */
  readonly stats: { requests: number; retries: number };
  /** Waits before another attempt of a call whose outcome is unknown (no wait in-process); reports it as a retry of `request`. */
  backoff(attempt: number, request: { method: string; path: string }): Promise<void>;
  close(): Promise<void>;
}
