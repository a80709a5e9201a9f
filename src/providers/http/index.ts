/**
 * The HTTP provider: the shared v4 provider over `HttpTransport`, against any v4 base URL (the
 * real service, a proxy, or `zonewall serve`). It never creates zones: a missing zone is an error
 * that says to create it first. Credentials come from the environment only (`credentials.ts`).
 */
import { ZonewallError } from '../../errors.js';
import type { LiveZoneInfo, PlanTier } from '../../plan/index.js';
import { ProviderError } from '../v4/errors.js';
import { V4Provider } from '../v4/v4-provider.js';
import { RemoteDryRuns } from '../v4/dry-run.js';
import type { Provider } from '../provider.js';
import type { Clock } from './clock.js';
import { credentialsFromEnv } from './credentials.js';
import type { HttpCredentials } from './credentials.js';
import { HttpDefaults } from './defaults.js';
import type { BudgetListener, RateLimit } from './rate-limiter.js';
import { HttpTransport } from './transport.js';
import type { RetryEvent } from './transport.js';

export { HttpDefaults, ProviderEnv } from './defaults.js';
export { credentialsFromEnv, redact, Redacted } from './credentials.js';
export type { HttpCredentials } from './credentials.js';
export { RateLimiter, parseRateLimit } from './rate-limiter.js';
export type { BudgetListener, BudgetWait, RateLimit } from './rate-limiter.js';
export type { Clock } from './clock.js';
export type { RetryEvent, RetryReason } from './transport.js';

/** Options of the HTTP provider; everything but `url` has a default. */
export interface HttpProviderOptions {
  /** Base URL of the v4 API; a URL without a path gets `/client/v4`. */
  url: string;
  /** Default: read from the environment (`ZONEWALL_API_TOKEN`, or `ZONEWALL_AUTH_EMAIL` + `ZONEWALL_AUTH_KEY`). */
  credentials?: HttpCredentials;
  /** Environment to read credentials from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  rateLimit?: RateLimit;
  timeoutMs?: number;
  retries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  maxRetryAfterSeconds?: number;
  connections?: number;
  /** Test hooks: a fake clock (no real sleeping) and a fixed random source for the jitter. */
  clock?: Clock;
  random?: () => number;
  onRetry?: (event: RetryEvent) => void;
  /** Told when requests wait for the rate budget (a CLI prints a progress line). */
  budgetListener?: BudgetListener;
}

/** The v4 provider over HTTP. */
export class HttpProvider extends V4Provider {
  readonly kind = 'http' as const;
  readonly description: string;
  readonly target: string;
  declare protected readonly transport: HttpTransport;

  constructor(url: URL, transport: HttpTransport) {
    super(transport);
    this.target = baseUrlTarget(url);
    this.description = `v4 API at ${this.target}`;
  }

  /** The request budget this provider keeps to. */
  get rateLimit(): RateLimit {
    return this.transport.limiter.limit;
  }

  override estimateSeconds(requests: number): number {
    return this.transport.limiter.estimateSeconds(requests);
  }

  /** Pre-flight (`--preflight`): the Rulesets writes as dry runs, one request each (`v4/dry-run.ts`). */
  validator(_zoneId: string): Promise<Provider> {
    return Promise.resolve(new RemoteDryRuns(this.transport));
  }

  /** Never creates zones: a zone the service does not show is an error, never a plan to create it. */
  protected missingZone(name: string, create: { plan: PlanTier }): Promise<LiveZoneInfo> {
    void create;
    return Promise.reject(this.notFound(name));
  }

  /**
   * A zone the service does not show may exist and be outside the token's zones (a scoped token
   * lists only its zones): say both, and that zonewall will not create it.
   */
  protected override notFound(zone: string): ProviderError {
    return new ProviderError(
      `zone ${JSON.stringify(zone)} not found at ${this.description}, or not visible to this token: check the zone's name (or id) and the token's zone permissions (zonewall never creates zones on a remote API: create a missing zone on the service first)`,
      { code: 'ERR_API' },
    );
  }
}

/**
 * Opens an HTTP provider. Throws `ERR_USAGE` for a URL that is not http(s) or that carries
 * credentials, and `ERR_AUTH` when the environment has none.
 * @example
 * const provider = openHttpProvider({ url: 'http://127.0.0.1:8787/client/v4', env: process.env });
 */
export function openHttpProvider(options: HttpProviderOptions): HttpProvider {
  const url = parseBaseUrl(options.url);
  const credentials = options.credentials ?? credentialsFromEnv(options.env ?? process.env);
  const transport = new HttpTransport({
    url,
    credentials,
    rateLimit: options.rateLimit ?? HttpDefaults.rateLimit,
    timeoutMs: options.timeoutMs ?? HttpDefaults.timeoutMs,
    retries: options.retries ?? HttpDefaults.retries,
    backoffBaseMs: options.backoffBaseMs ?? HttpDefaults.backoffBaseMs,
    backoffMaxMs: options.backoffMaxMs ?? HttpDefaults.backoffMaxMs,
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? HttpDefaults.maxRetryAfterSeconds,
    connections: options.connections ?? HttpDefaults.connections,
    clock: options.clock,
    random: options.random,
    onRetry: options.onRetry,
  });
  transport.limiter.listener = options.budgetListener;
  return new HttpProvider(url, transport);
}

/** The `Provider.target` of the API at `url` (a `parseBaseUrl` result): its origin and path, no trailing slash. */
export function baseUrlTarget(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Validates the base URL; credentials in it are refused so they never end up in shell history or logs. */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ZonewallError('ERR_USAGE', `invalid API URL ${JSON.stringify(text)}: expected http(s)://host[:port]/client/v4`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ZonewallError('ERR_USAGE', `invalid API URL: protocol ${url.protocol} is not http: or https:`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ZonewallError('ERR_USAGE', 'the API URL must not contain credentials: set ZONEWALL_API_TOKEN (or ZONEWALL_AUTH_EMAIL and ZONEWALL_AUTH_KEY) instead');
  }
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/client/v4';
  // The base, not a resource under it: `.../client/v4/zones` would be asked for `/zones/zones`.
  const path = url.pathname.replace(/\/+$/, '');
  const base = path.indexOf('/client/v4/');
  const extra = base >= 0 ? path.slice(base + '/client/v4'.length) : /\/(zones|accounts)$/.exec(path)?.[0];
  if (extra !== undefined) {
    throw new ZonewallError('ERR_USAGE', `invalid API URL: give the API's base (such as https://host/client/v4), not a resource under it; drop ${extra}`);
  }
  url.search = '';
  url.hash = '';
  return url;
}
