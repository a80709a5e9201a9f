/**
 * The providers' public surface: the `Provider` interface, `openProvider`, the HTTP provider's
 * defaults and environment variables, and the errors providers throw. The engine provider is
 * reached through `openProvider` (loaded lazily) or `providers/engine/` directly.
 */
export * from './provider.js';
export { DefaultStateDir, openProvider, providerTarget } from './open.js';
export { holdPrivateState, userUmask } from './engine/private-state.js';
export type { ProviderOptions } from './open.js';
export {
  HttpDefaults,
  HttpProvider,
  ProviderEnv,
  RateLimiter,
  Redacted,
  credentialsFromEnv,
  openHttpProvider,
  parseBaseUrl,
  parseRateLimit,
  redact,
} from './http/index.js';
export type { BudgetListener, BudgetWait, Clock, HttpCredentials, HttpProviderOptions, RateLimit, RetryEvent, RetryReason } from './http/index.js';
export { ProviderError, ServiceError, V4Codes, V4Limits, isUnknownOutcome } from './v4/index.js';
export type { CallOutcome } from './v4/index.js';
export { mapLimit } from './v4/concurrency.js';
