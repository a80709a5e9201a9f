/**
 * Authentication of v4 requests, as the seeds show: `Authorization: Bearer <token>` (preferred,
 * checked first) or `X-Auth-Email` + `X-Auth-Key`. The answer is the caller's zone scope, or the
 * real service's error: 9106 (no credentials, 401), 6003 with an `error_chain` of 6102/6103/6111
 * (malformed headers, 400), 9109 (unknown token, 403), 9103 (unknown e-mail/key, 403). Secrets are
 * compared through SHA-256 digests with `timingSafeEqual`, so timing does not leak them.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, apiMessage } from '../api-errors.js';
import { ok } from '../envelope.js';
import type { ApiResponse, AuthScope } from '../types.js';
import type { Credential } from './credentials.js';

/** Credentials prepared for constant-time lookups. */
export class CredentialStore {
  private readonly tokens: { digest: Buffer; scope: AuthScope; id: string }[] = [];
  private readonly keys: { email: string; digest: Buffer; scope: AuthScope }[] = [];
  /** Per connection, the credential header values that last passed, and their scope. */
  readonly #seen = new WeakMap<object, { authorization: string | undefined; email: string | undefined; key: string | undefined; scope: AuthScope }>();

  constructor(credentials: readonly Credential[]) {
    for (const c of credentials) {
      if (c.type === 'token') this.tokens.push({ digest: digest(c.token), scope: { zones: c.zones }, id: digest(`id:${c.token}`).toString('hex').slice(0, 32) });
      else this.keys.push({ email: c.email.toLowerCase(), digest: digest(c.key), scope: { zones: c.zones } });
    }
  }

  /**
   * The scope of the request's credentials, or throws the refusal. With `connection` (the request's
   * socket), credentials that passed are remembered for that connection, so the next request of a
   * keep-alive client that sends the very same header values skips the digests. A request's values
   * are compared only with what its own connection sent before and passed (a refused value is
   * never remembered), in constant time all the same (a proxy may carry several clients over one
   * connection). The accepted credentials never change during a store's life, so a remembered
   * answer stays right; a new store starts with nothing remembered.
   */
  authenticate(headers: IncomingHttpHeaders, connection?: object): AuthScope {
    const authorization = header(headers, 'authorization');
    const email = authorization === undefined ? header(headers, 'x-auth-email') : undefined;
    const key = authorization === undefined ? header(headers, 'x-auth-key') : undefined;
    const seen = connection === undefined ? undefined : this.#seen.get(connection);
    if (seen !== undefined && sameText(authorization, seen.authorization) & sameText(email, seen.email) & sameText(key, seen.key)) return seen.scope;
    const scope = authorization !== undefined ? this.token(parseBearer(authorization)).scope : this.#keyScope(email, key);
    if (connection !== undefined) this.#seen.set(connection, { authorization, email, key, scope });
    return scope;
  }

  #keyScope(email: string | undefined, key: string | undefined): AuthScope {
    if (email === undefined || key === undefined) {
      throw ApiError.of('missingCredentials', 'Missing X-Auth-Key, X-Auth-Email or Authorization headers');
    }
    const chain = [];
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) chain.push({ code: 6102, message: 'Invalid format for X-Auth-Email header' });
    if (!/^\S+$/.test(key)) chain.push({ code: 6103, message: 'Invalid format for X-Auth-Key header' });
    if (chain.length > 0) throw new ApiError(400, [apiMessage('invalidHeaders', 'Invalid request headers', { chain })]);
    const d = digest(key);
    let found: AuthScope | undefined;
    for (const k of this.keys) {
      // Compare every entry (no early exit) so the time does not depend on which one matched.
      if (timingSafeEqual(k.digest, d) && k.email === email.toLowerCase()) found ??= k.scope;
    }
    if (found === undefined) throw ApiError.of('unknownKey', 'Unknown X-Auth-Key or X-Auth-Email');
    return found;
  }

  /** The token entry of a bearer token, or throws 9109. */
  token(token: string): { scope: AuthScope; id: string } {
    const d = digest(token);
    let found: { scope: AuthScope; id: string } | undefined;
    for (const t of this.tokens) if (timingSafeEqual(t.digest, d)) found ??= t;
    if (found === undefined) throw ApiError.of('invalidToken', 'Invalid access token');
    return found;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or throws 6003/6111. */
export function parseBearer(value: string): string {
  const m = /^Bearer +(\S+)\s*$/i.exec(value);
  if (m === null) {
    throw new ApiError(400, [apiMessage('invalidHeaders', 'Invalid request headers', { chain: [{ code: 6111, message: 'Invalid format for Authorization header' }] })]);
  }
  return m[1]!;
}

/** `GET /user/tokens/verify`: the real service's token check, for both runtimes' servers. */
export function verifyToken(method: string, authorization: string | undefined, store: CredentialStore): ApiResponse {
  if (method !== 'GET') throw new ApiError(405, [{ code: 7001, message: `${method} is not allowed on /user/tokens/verify; allowed: GET` }], { allow: 'GET' });
  if (authorization === undefined) throw ApiError.of('missingCredentials', 'Missing "Authorization" header: token verification needs a bearer token');
  const token = store.token(parseBearer(authorization));
  return ok({ id: token.id, status: 'active' }, { messages: [{ code: 10000, message: 'This API Token is valid and active' }] });
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

/**
 * 1 when `given` (a request's header value) equals `known`, else 0; the time depends on the length
 * of `given` only (no early exit), so a wrong guess learns nothing about `known`.
 */
function sameText(given: string | undefined, known: string | undefined): number {
  if (given === undefined || known === undefined) return given === known ? 1 : 0;
  let diff = given.length ^ known.length;
  // Past the end of `known`, charCodeAt is NaN, which `^` reads as 0: the difference stays.
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ known.charCodeAt(i);
  return diff === 0 ? 1 : 0;
}

function digest(secret: string): Buffer {
  // One-shot hash: a third of createHash's cost, paid on every request.
  return hash('sha256', secret, 'buffer');
}
