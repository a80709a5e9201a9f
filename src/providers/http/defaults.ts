/**
 * Defaults of the HTTP provider and the environment variables it reads, in one place: the real
 * service's request budget (1,200 requests per 5 minutes per user), timeouts and the retry policy.
 */

/** Defaults of the HTTP provider (each is configurable; see `HttpProviderOptions`). */
export const HttpDefaults = {
  /** The real service's budget: 1,200 requests per 300 seconds (`--rate-limit`, `ZONEWALL_RATE_LIMIT`). */
  rateLimit: { requests: 1200, seconds: 300 },
  /** Per-request timeout: connecting, waiting for the headers, and between body chunks (`--timeout`). */
  timeoutMs: 30_000,
  /** Extra attempts after the first, for 429, 5xx (idempotent calls) and timeouts or dropped connections. */
  retries: 5,
  /** Full-jitter exponential backoff: attempt n waits random(0, min(max, base * 2^(n-1))). */
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  /** A 429 whose Retry-After is longer than this is not waited for: the call fails and says so. */
  maxRetryAfterSeconds: 300,
  /** Connections kept open to the service. */
  connections: 4,
} as const;

/** Environment variables the providers read. Credentials are read from these only, never from argv. */
export const ProviderEnv = {
  /** Base URL of a v4 API, e.g. `https://api.example.com/client/v4` (same as `--remote`). */
  url: 'ZONEWALL_API_URL',
  /** An API token, sent as `Authorization: Bearer <token>` (preferred). */
  token: 'ZONEWALL_API_TOKEN',
  /** Account e-mail for the key pair, sent as `X-Auth-Email`. */
  email: 'ZONEWALL_AUTH_EMAIL',
  /** Account key for the key pair, sent as `X-Auth-Key`. */
  key: 'ZONEWALL_AUTH_KEY',
  /** Request budget, `<requests>/<seconds>s` (e.g. `1200/300s`; same as `--rate-limit`). */
  rateLimit: 'ZONEWALL_RATE_LIMIT',
} as const;
