/**
 * The Worker's variables and secrets and the settings read from them: the credentials (secrets, as
 * `zonewall serve` reads them from its environment), and the options `zonewall serve --runtime
 * workerd` passes to the same Worker locally. The Durable Object classes and the Worker's entry both
 * read them; the namespaces are in `env.ts`.
 */
import { DefaultMaxBodyBytes, serveCredentialsFromEnv, readCredentialsText, readPlanLimitsText, resolvePlanLimits, type Credential } from '../../src/engine/workerd.js';

/** The Worker's variables and secrets (its bindings other than the Durable Object namespaces). */
export interface Settings {
  /** Secret: a bearer token for every zone (as `zonewall serve`'s environment variable). */
  ZONEWALL_SERVE_TOKEN?: string;
  /** Secrets: an X-Auth-Email / X-Auth-Key pair for every zone. */
  ZONEWALL_SERVE_AUTH_EMAIL?: string;
  ZONEWALL_SERVE_AUTH_KEY?: string;
  /** Secret: credentials with zone scopes, as JSON: the `credentials` array of a `serve --credentials FILE`. */
  ZONEWALL_CREDENTIALS?: string;
  /** `"true"`: accept every request (`serve --insecure-no-auth`). */
  ZONEWALL_INSECURE_NO_AUTH?: string;
  /** `"true"`: the real API's shapes only (`serve --strict`). */
  ZONEWALL_STRICT?: string;
  /** Plan limit overrides as JSON (`serve --limits FILE`). */
  ZONEWALL_LIMITS?: string;
  /** Request body limit in bytes (default 1 MiB). */
  ZONEWALL_MAX_BODY_BYTES?: string;
  /** `"true"`: serve `POST /zonewall/import` (set only by `serve --runtime workerd`, to import a state directory's zones). */
  ZONEWALL_IMPORTS?: string;
  /**
   * `"true"`: this Worker's front is the only path to its objects (set only by `serve --runtime
   * workerd`: one process, one isolate), so it answers repeat reads of list pages itself
   * (`front-cache.ts`). Never on a deployed Worker, which runs in many isolates.
   */
  ZONEWALL_SOLE_FRONT?: string;
  /** Test hook: polls a list bulk operation stays pending/running (`EngineOptions.listOperationPolls`). */
  ZONEWALL_LIST_OPERATION_POLLS?: string;
}

/**
 * The credentials the Worker accepts, read and checked as `zonewall serve` reads its environment
 * and `--credentials FILE` (`ZONEWALL_CREDENTIALS` holds that file's JSON): a bad one throws, with
 * its place in the secret and never a value.
 */
export function credentialsOf(env: Settings): Credential[] {
  const out = serveCredentialsFromEnv({ ZONEWALL_SERVE_TOKEN: env.ZONEWALL_SERVE_TOKEN, ZONEWALL_SERVE_AUTH_EMAIL: env.ZONEWALL_SERVE_AUTH_EMAIL, ZONEWALL_SERVE_AUTH_KEY: env.ZONEWALL_SERVE_AUTH_KEY });
  if (!nonEmpty(env.ZONEWALL_CREDENTIALS)) return out;
  return [...out, ...readCredentialsText(env.ZONEWALL_CREDENTIALS, 'ZONEWALL_CREDENTIALS', out, 'the secret ZONEWALL_CREDENTIALS')];
}

/** The plan limits (defaults with `ZONEWALL_LIMITS` applied, read as `serve --limits FILE`: a bad one throws, located). */
export function planLimitsOf(env: Settings): ReturnType<typeof resolvePlanLimits> {
  return resolvePlanLimits(nonEmpty(env.ZONEWALL_LIMITS) ? readPlanLimitsText(env.ZONEWALL_LIMITS, 'ZONEWALL_LIMITS', 'the variable ZONEWALL_LIMITS') : {});
}

/** The request body limit. */
export function maxBodyBytesOf(env: Settings): number {
  const n = Number(env.ZONEWALL_MAX_BODY_BYTES);
  return Number.isSafeInteger(n) && n > 0 ? n : DefaultMaxBodyBytes;
}

/** Where unexpected errors go: the Worker's log (`wrangler tail`; the terminal under Miniflare). */
export function logError(message: string, err: unknown): void {
  console.error(`zonewall worker: ${message}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}
