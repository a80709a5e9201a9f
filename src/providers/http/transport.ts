/**
 * The HTTP transport: sends v4 calls with undici over a connection pool, with the credential
 * headers, a per-request timeout, the client-side rate limit, and retries with full-jitter
 * exponential backoff. What is retried here (a call that is answered is returned as is):
 *
 * | failure                                  | GET/PUT/PATCH/DELETE | POST                              |
 * |------------------------------------------|----------------------|-----------------------------------|
 * | 429 (waits Retry-After when given)       | retried              | retried (the service refused it)  |
 * | 5xx                                      | retried              | returned: outcome unknown         |
 * | not connected (refused, DNS, connect tmo)| retried              | retried (nothing was sent)        |
 * | timeout or dropped connection after send | retried              | thrown, outcome unknown           |
 * | 2xx whose JSON body is cut off           | retried              | thrown, outcome unknown           |
 *
 * Connection faults (the last three rows) are the link's: concurrent calls that meet one share a
 * single wait, reported once, and no call is sent while it lasts.
 *
 * A POST whose outcome is unknown is never repeated here: `v4/firewall.ts` re-reads by `ref` first.
 * Secrets are scrubbed from every answer body and error text before anything else sees them.
 */
import { createRequire } from 'node:module';
import type { Dispatcher, Pool } from 'undici';
import { ProviderError } from '../v4/errors.js';
import type { Envelope, Transport, TransportRequest, TransportResponse } from '../v4/transport.js';
import { backoffMs, retryAfterMs, systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { authHeaders, redact, secretsOf } from './credentials.js';
import type { HttpCredentials } from './credentials.js';
import { RateLimiter } from './rate-limiter.js';
import type { RateLimit } from './rate-limiter.js';

/** Why a call is being retried. */
export type RetryReason = 'rate-limited' | 'server-error' | 'timeout' | 'network' | 'lost-answer';

/** Reported before each retry, so a CLI can say why it is waiting. */
export interface RetryEvent {
  method: string;
  path: string;
  attempt: number;
  delayMs: number;
  reason: RetryReason;
}

/** Settings of the HTTP transport (defaults in `HttpDefaults`). */
export interface HttpTransportOptions {
  /** API base URL, e.g. `http://127.0.0.1:8787/client/v4`. */
  url: URL;
  credentials: HttpCredentials;
  rateLimit: RateLimit;
  timeoutMs: number;
  retries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxRetryAfterSeconds: number;
  connections: number;
  clock?: Clock;
  random?: () => number;
  onRetry?: (event: RetryEvent) => void;
}

/** Errors raised before any byte of the request reached the service: always safe to resend. */
const NotSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TimeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
/** The HTTP client refused the request itself (a header it cannot send): nothing was sent, and sending it again fails the same way. */
const RefusedCodes = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_CHAR', 'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE', 'ERR_INVALID_HTTP_TOKEN']);

type Attempt = { response: TransportResponse } | { error: { code: string; message: string; notSent: boolean; cause: unknown } };

/** A `Transport` over HTTP. */
export class HttpTransport implements Transport {
  readonly stats = { requests: 0, retries: 0 };
  readonly limiter: RateLimiter;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  private readonly secrets: string[];
  private readonly clock: Clock;
  private readonly random: () => number;
  /** The shared wait after a connection fault, while one is under way. */
  private outage: Promise<void> | undefined;

  constructor(private readonly options: HttpTransportOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.limiter = new RateLimiter(options.rateLimit, this.clock);
    // undici is loaded when a remote run opens its pool, not by every command that could (start-up time).
    const { Pool: UndiciPool } = createRequire(import.meta.url)('undici') as typeof import('undici');
    this.pool = new UndiciPool(options.url.origin, { connections: options.connections, connect: { timeout: options.timeoutMs } });
    this.basePath = options.url.pathname.replace(/\/+$/, '');
    this.headers = { accept: 'application/json', 'user-agent': 'zonewall', ...authHeaders(options.credentials) };
    this.secrets = secretsOf(options.credentials);
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const idempotent = request.method !== 'POST';
    for (let attempt = 1; ; attempt++) {
      // A known outage: nothing is sent into it (queued calls would only fail and each retry on its own).
      if (this.outage !== undefined) await this.outage;
      await this.limiter.acquire();
      this.stats.requests++;
      const result = await this.once(request);
      const retry = this.retryDecision(result, idempotent);
      if (retry !== undefined && attempt <= this.options.retries) {
        this.stats.retries++;
        if (retry.reason === 'network' || retry.reason === 'timeout') await this.waitOutOutage(request, attempt, retry.reason);
        else await this.waitAndReport(request, attempt, retry);
        continue;
      }
      if ('response' in result) return result.response;
      throw this.failure(request, result.error, attempt, idempotent);
    }
  }

  /** One call's own wait (429, 5xx): reported, then slept. */
  private async waitAndReport(request: TransportRequest, attempt: number, retry: { reason: RetryReason; delayMs?: number }): Promise<void> {
    const delayMs = retry.delayMs ?? backoffMs(attempt, this.options, this.random);
    if (retry.reason === 'rate-limited') this.limiter.pause(delayMs);
    this.options.onRetry?.({ method: request.method, path: request.path, attempt, delayMs, reason: retry.reason });
    await this.clock.sleep(delayMs);
  }

  /**
   * A connection fault (refused, reset, timed out, cut off) is the link's, not the call's: concurrent
   * calls that meet it share one wait, reported once, instead of one line (and one backoff) each.
   */
  private async waitOutOutage(request: TransportRequest, attempt: number, reason: RetryReason): Promise<void> {
    if (this.outage !== undefined) return this.outage;
    const delayMs = backoffMs(attempt, this.options, this.random);
    this.options.onRetry?.({ method: request.method, path: request.path, attempt, delayMs, reason });
    const outage = this.clock.sleep(delayMs).finally(() => {
      if (this.outage === outage) this.outage = undefined;
    });
    this.outage = outage;
    return outage;
  }

  /** Whether (and how long) to wait and send again; undefined to stop here. */
  private retryDecision(result: Attempt, idempotent: boolean): { reason: RetryReason; delayMs?: number } | undefined {
    if ('error' in result) {
      if (RefusedCodes.has(result.error.code)) return undefined;
      if (!idempotent && !result.error.notSent) return undefined;
      return { reason: TimeoutCodes.has(result.error.code) ? 'timeout' : 'network' };
    }
    const { status, headers } = result.response;
    if (status === 429) {
      const wait = retryAfterMs(headers['retry-after'], this.clock.now());
      if (wait !== undefined && wait > this.options.maxRetryAfterSeconds * 1000) return undefined;
      return wait === undefined ? { reason: 'rate-limited' } : { reason: 'rate-limited', delayMs: wait };
    }
    if (status >= 500 && idempotent) return { reason: 'server-error' };
    return undefined;
  }

  private failure(request: TransportRequest, error: { code: string; message: string; notSent: boolean; cause: unknown }, attempts: number, idempotent: boolean): ProviderError {
    const what = TimeoutCodes.has(error.code) ? `no answer within ${this.options.timeoutMs} ms` : error.message;
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    const unknown = !idempotent && !error.notSent;
    const message = `${request.method} ${this.describe(request.path)} failed${tries}: ${what} (${error.code})` +
      (unknown ? '; the service may have applied it' : '');
    return new ProviderError(redact(message, this.secrets), { outcome: unknown ? 'unknown' : 'not-applied' });
  }

  private async once(request: TransportRequest): Promise<Attempt> {
    const query = request.query !== undefined && [...request.query.keys()].length > 0 ? `?${request.query.toString()}` : '';
    const headers = { ...this.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    try {
      const res = await this.pool.request({
        method: request.method,
        path: `${this.basePath}${request.path}${query}`,
        headers,
        body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const text = redact(await res.body.text(), this.secrets);
      if (isCutOff(text, res.statusCode)) {
        return { error: { code: 'ERR_CUT_BODY', message: `the answer (HTTP ${res.statusCode}) was cut off after ${text.length} characters`, notSent: false, cause: undefined } };
      }
      return { response: { status: res.statusCode, headers: flattenHeaders(res.headers), body: parseEnvelope(text, res.statusCode) } };
    } catch (cause) {
      const code = errorCode(cause);
      return { error: { code, message: redact(cause instanceof Error ? cause.message : String(cause), this.secrets), notSent: NotSentCodes.has(code) || RefusedCodes.has(code), cause } };
    }
  }

  /** `origin/base/path` for messages (no query: ids there add nothing). */
  private describe(path: string): string {
    return `${this.options.url.origin}${this.basePath}${path}`;
  }

  /** Waits before re-reading after a lost answer (full-jitter backoff), reporting it like every retry. */
  async backoff(attempt: number, request: { method: string; path: string }): Promise<void> {
    const delayMs = backoffMs(attempt, this.options, this.random);
    this.stats.retries++;
    this.options.onRetry?.({ method: request.method, path: request.path, attempt, delayMs, reason: 'lost-answer' });
    await this.clock.sleep(delayMs);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'ERR_NETWORK';
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * A success answer whose JSON stops short (the connection closed before the end of a body without
 * a length): a network fault, not an answer. A body that is not JSON at all (a proxy's page) is an answer.
 */
function isCutOff(text: string, status: number): boolean {
  if (status < 200 || status >= 300) return false;
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** The answer's envelope; a body that is not one (a proxy's HTML page) becomes an error envelope. */
function parseEnvelope(text: string, status: number): Envelope {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === 'object' && typeof (parsed as Envelope).success === 'boolean') return parsed as Envelope;
  } catch {
    // fall through: not JSON
  }
  // Control characters of a proxy's page (an escape sequence) must not reach the user's terminal.
  const excerpt = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, 200);
  return { success: false, errors: [{ message: `not a v4 JSON answer (HTTP ${status})${excerpt ? `: ${excerpt}` : ''}` }], messages: null, result: null };
}
