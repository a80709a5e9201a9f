/**
 * The v4 HTTP layer for the Fetch API (`Request` in, `Response` out): what `server.ts` does over
 * `node:http`, for the Worker that serves the engine on workerd. Same prefix, the same credentials
 * and refusals (`auth.ts`), the same body limits (`body.ts`), and every answer an envelope; stack
 * traces go to the log, never to the client. One difference: a path ending in `/` is refused (see
 * `answer`), since on the Fetch API it may be what is left of a dot segment.
 */
import { failureResponse, noRouteError } from '../envelope.js';
import type { ApiRequest, ApiResponse, AuthScope } from '../types.js';
import { CredentialStore, verifyToken } from './auth.js';
import { readJsonRequest } from './body.js';

/** What `handleFetch` needs besides the request. */
export interface FetchSettings {
  /** Answers one v4 call (`V4Dispatcher.respond`). */
  respond(request: ApiRequest): Promise<ApiResponse>;
  store: CredentialStore;
  /** Accept every request without credentials. */
  insecure: boolean;
  maxBodyBytes: number;
  logError(message: string, err: unknown): void;
}

/** The API's path prefix. */
export const ApiPrefix = '/client/v4';

/** Serves one HTTP request of the v4 API. */
export async function handleFetch(request: Request, s: FetchSettings): Promise<Response> {
  return toResponse(await answer(request, s));
}

async function answer(request: Request, s: FetchSettings): Promise<ApiResponse> {
  try {
    const { pathname, query } = splitUrl(request.url);
    if (pathname !== ApiPrefix && !pathname.startsWith(`${ApiPrefix}/`)) throw noRouteError(pathname);
    // A Fetch API URL is parsed the WHATWG way before the Worker sees it: `.` and `..` segments
    // (plain or %2e) are already resolved, so `DELETE /zones/Z/filters/..` arrives as
    // `/zones/Z/`. What such a segment always leaves is a trailing slash: refuse those paths
    // (the v4 routes never need one) rather than act on the parent resource.
    if (pathname.endsWith('/')) throw noRouteError(pathname);
    const path = pathname.slice(ApiPrefix.length) || '/';
    const headers = Object.fromEntries(request.headers);
    const auth: AuthScope | undefined = s.insecure ? undefined : s.store.authenticate(headers);
    if (path.replace(/\/$/, '') === '/user/tokens/verify') return verifyToken(request.method, headers.authorization, s.store);
    const body = await readJsonRequest(request, s.maxBodyBytes);
    return await s.respond({ method: request.method, path, query, body, ...(auth !== undefined ? { auth } : {}) });
  } catch (err) {
    return failureResponse(err, `${request.method} ${splitUrl(request.url).pathname}`, s.logError);
  }
}

/** The path (verbatim: no dot-segment resolution beyond what the URL already had) and the query. */
function splitUrl(url: string): { pathname: string; query: URLSearchParams } {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
  const target = url.slice(origin.length) || '/';
  const q = target.indexOf('?');
  return { pathname: q < 0 ? target : target.slice(0, q), query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)) };
}

function toResponse(response: ApiResponse): Response {
  // 204 (e.g. DELETE of a ruleset) has no body on the wire.
  if (response.status === 204) return new Response(null, { status: 204, headers: { ...response.headers } });
  return new Response(response.json ?? JSON.stringify(response.body), {
    status: response.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...response.headers },
  });
}
