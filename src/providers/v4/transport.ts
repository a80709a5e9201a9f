/**
 * The seam between the shared v4 client and the two ways of reaching a service: one request in,
 * one response (status, envelope, headers) out. The engine transport calls `Engine.dispatch`
 * in-process; the HTTP transport sends it with undici (auth, timeouts, retries, rate limit). The
 * envelope types are the v4 API's, declared here so that only `providers/engine/` imports the engine.
 */

/** HTTP methods the v4 API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One message of an envelope's `errors` or `messages`. */
export interface ApiMessage {
  code?: number;
  message: string;
  source?: { pointer: string };
  meta?: Record<string, unknown>;
  error_chain?: ApiMessage[];
}

/** `result_info` of a list page. */
export interface ResultInfo {
  page: number;
  per_page: number;
  count: number;
  total_count: number;
  total_pages?: number;
}

/** The v4 response envelope. */
export interface Envelope {
  success: boolean;
  errors: ApiMessage[];
  messages: ApiMessage[] | null;
  result: unknown;
  result_info?: ResultInfo;
}

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
  /** Requests made so far (HTTP requests including retries, or in-process dispatches). */
  readonly stats: { requests: number; retries: number };
  /** Waits before another attempt of a call whose outcome is unknown (no wait in-process). */
  backoff(attempt: number): Promise<void>;
  close(): Promise<void>;
}
