/**
 * The v4 response envelope and pagination: success and error envelopes, `result_info`, and the
 * `page` / `per_page` query parameters (default 25, 5..100, as the real filters and firewall rules
 * APIs). Handlers build every answer through these helpers so the envelope is the same everywhere.
 */
import { PageLimits } from '../api/index.js';
import { ZonewallError, damagedStateError } from '../errors.js';
import { ApiError, apiMessage } from './api-errors.js';
import type { ApiMessage, ApiResponse, ResultInfo } from './types.js';

/** Page sizes of the filters and firewall rules lists (the wire contract's). */
export { PageLimits };

/** A validated page request. */
export interface PageRequest {
  page: number;
  perPage: number;
  /** Rows to skip: `(page - 1) * perPage`. */
  offset: number;
}

/** 200 with `result`; `messages` are informational notes (an empty array when none). */
export function ok(result: unknown, extra: { messages?: ApiMessage[]; resultInfo?: ResultInfo } = {}): ApiResponse {
  const body: ApiResponse['body'] = { result, success: true, errors: [], messages: extra.messages ?? [] };
  if (extra.resultInfo !== undefined) body.result_info = extra.resultInfo;
  return { status: 200, body };
}

/** The error envelope of a refused request (`result: null`). */
export function errorResponse(err: ApiError, extra: { messages?: ApiMessage[]; result?: unknown } = {}): ApiResponse {
  const response: ApiResponse = {
    status: err.status,
    body: { result: extra.result ?? null, success: false, errors: err.errors, messages: extra.messages ?? [] },
  };
  if (err.headers !== undefined) response.headers = err.headers;
  return response;
}

/**
 * The answer to a request whose handling threw: a refusal (`ApiError`) as its error envelope; any
 * other error is logged as `what` failed and answered as an internal error whose details stay in
 * the server log. The engine's every catch-all answers through it (dispatcher, zone and account
 * objects, servers). A file of the state directory this process may not use (storage's
 * `StorageAccessError`, met before anything was written) is not a bug, and is not logged here: the
 * answer says so and carries the error (`accessFailureOf`), which the HTTP server logs as one line
 * (path, owner, mode, what to do; no stack trace) and `Engine.dispatch` throws to its in-process
 * caller (the CLI says it as one line).
 */
export function failureResponse(err: unknown, what: string, logError: (message: string, err: unknown) => void): ApiResponse {
  if (err instanceof ApiError) return errorResponse(err);
  // By its code, not its class: the worker bundle (workerd) must not import storage (better-sqlite3).
  if (err instanceof ZonewallError && err.code === 'ERR_STATE_ACCESS') {
    const verb = (err as { writes?: unknown }).writes === true ? 'write' : 'read';
    const response = errorResponse(ApiError.of('internal', `internal error: the request was not applied: the server cannot ${verb} a file of its state directory (the server log names it)`));
    accessFailures.set(response, err);
    return response;
  }
  // A zone whose restore waits for a command that writes (a rollback the file system cut short):
  // a reader cannot read it; said as the access error is, one line, no stack trace.
  if (err instanceof ZonewallError && err.code === 'ERR_STATE_RESTORE_PENDING') {
    const response = errorResponse(ApiError.of('internal', 'internal error: the request was not applied: a restore of this zone waits for a command that writes (the server log names the file)'));
    accessFailures.set(response, err);
    return response;
  }
  // A write the state directory refused after its files opened (storage's `StorageWriteError`: a
  // file made read-only meanwhile, a full disk), rolled back: said as the access error is.
  if (err instanceof Error && (err as { code?: unknown }).code === 'ERR_STATE_WRITE') {
    const committed = (err as { committed?: unknown }).committed === true;
    const response = errorResponse(ApiError.of('internal', committed
      ? 'internal error: the request was applied, but the server could not write its point-in-time log (the server log names the path)'
      : 'internal error: the request was not applied: the server could not write its state directory (the server log names the path)'));
    accessFailures.set(response, err);
    return response;
  }
  // A damaged database file of the state directory is not a bug either: answered, carried and logged the same way.
  const damaged = damagedStateError(err);
  if (damaged !== undefined) {
    const response = errorResponse(ApiError.of('internal', 'internal error: the request was not applied: a database file of the server\'s state directory is damaged (the server log says more)'));
    accessFailures.set(response, damaged);
    return response;
  }
  logError(`${what} failed`, err);
  return errorResponse(ApiError.of('internal', 'internal error: the request was not applied (details are in the server log)'));
}

const accessFailures = new WeakMap<ApiResponse, Error>();

/**
 * The state-directory error an answer of `failureResponse` stands for, if any: access refused
 * (`ERR_STATE_ACCESS`, a `ZonewallError`), a write refused after the files opened (`ERR_STATE_WRITE`,
 * storage's `StorageWriteError`, a reset of the object), or a damaged database file (`ERR_STATE_DAMAGED`).
 */
export function accessFailureOf(response: ApiResponse): Error | undefined {
  return accessFailures.get(response);
}

/** A list page: 200 with the page's items and `result_info`. */
export function page(items: unknown[], request: PageRequest, totalCount: number): ApiResponse {
  return ok(items, {
    resultInfo: {
      page: request.page,
      per_page: request.perPage,
      count: items.length,
      total_count: totalCount,
      total_pages: Math.ceil(totalCount / request.perPage),
    },
  });
}

/** How to assemble the JSON bytes of answer bodies built by `pageWithBytes` (made at the first ask). */
const serialised = new WeakMap<object, Uint8Array | (() => Uint8Array)>();
const utf8 = new TextEncoder();
const RESULT_OPEN = utf8.encode('{"result":[');

/**
 * A list page as `page` builds it, of `items` (the array itself: it is frozen here), whose JSON
 * bytes can be had one by one (`bytesOf`, kept with the items): the body's JSON bytes are assembled
 * from them, exactly the UTF-8 of `JSON.stringify(body)`, for the server to send without
 * serialising the page again (`serialisedBytes`). Copying the items' bytes is about three times
 * cheaper than joining their texts and encoding the page (issue 17: the page a write changed is
 * rebuilt at the next read). It is assembled only when asked for: the in-process provider never
 * sends bytes, so it never pays. The answer is frozen, through and through (the items must be
 * frozen): every read of the page shares it, in-process callers too, who then need no copy of it
 * (`Engine.dispatch`).
 */
export function pageWithBytes<T>(items: T[], bytesOf: (item: T) => Uint8Array, request: PageRequest, totalCount: number): ApiResponse {
  const response = page(items, request, totalCount);
  const body = response.body;
  const { result: _items, ...rest } = body;
  // `result` is the body's first key (`ok`), and `rest` is never empty (`success`).
  serialised.set(body, () => jsonArrayThen(items.map(bytesOf), `],${JSON.stringify(rest).slice(1)}`));
  Object.freeze(body.result);
  Object.freeze(body.errors);
  Object.freeze(body.messages);
  Object.freeze(body.result_info);
  Object.freeze(body);
  return Object.freeze(response);
}

/** `{"result":[` + the items' bytes joined by commas + `tail`, as one array. */
function jsonArrayThen(items: readonly Uint8Array[], tail: string): Uint8Array {
  const end = utf8.encode(tail);
  let size = RESULT_OPEN.length + Math.max(0, items.length - 1) + end.length;
  for (const item of items) size += item.length;
  const out = new Uint8Array(size);
  out.set(RESULT_OPEN, 0);
  let at = RESULT_OPEN.length;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[at++] = 0x2c; // ,
    out.set(items[i]!, at);
    at += items[i]!.length;
  }
  out.set(end, at);
  return out;
}

/** The JSON bytes (UTF-8) of an answer body assembled by `pageWithBytes`; undefined for any other. */
export function serialisedBytes(body: object): Uint8Array | undefined {
  const bytes = serialised.get(body);
  if (typeof bytes !== 'function') return bytes;
  const made = bytes();
  serialised.set(body, made);
  return made;
}

/** Whether the bytes of a body built by `pageWithBytes` have been assembled (the server sent it). */
export function isSerialised(body: object): boolean {
  const bytes = serialised.get(body);
  return bytes !== undefined && typeof bytes !== 'function';
}

/** The JSON bytes (UTF-8) of `value`, the same as `serialisedBytes` makes of a page's items. */
export function jsonBytes(value: unknown): Uint8Array {
  return utf8.encode(JSON.stringify(value));
}

/** Reads `page` and `per_page` (default limits: the filters and firewall rules lists'); out-of-range or non-integer values are refused naming the limit. */
export function parsePageRequest(
  query: URLSearchParams,
  limits: { defaultPerPage: number; minPerPage: number; maxPerPage: number } = PageLimits,
): PageRequest {
  const pageNo = integerParam(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  const perPage = integerParam(query, 'per_page', limits.defaultPerPage, limits.minPerPage, limits.maxPerPage);
  return { page: pageNo, perPage, offset: (pageNo - 1) * perPage };
}

function integerParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    throw ApiError.of('invalidQuery', `query parameter ${name} must be ${range}, got ${JSON.stringify(raw)}`, { pointer: `?${name}` });
  }
  return value;
}

/** Reads a boolean query parameter (`true` / `false`); undefined when absent. */
export function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw ApiError.of('invalidQuery', `query parameter ${name} must be true or false, got ${JSON.stringify(raw)}`, { pointer: `?${name}` });
}

/** The 404 envelope of a path no route matches, in the real service's words. */
export function noRouteError(path: string): ApiError {
  return new ApiError(404, [
    apiMessage('noRoute', `Could not route to ${path}, perhaps your object identifier is invalid?`),
    { code: 7000, message: 'No route for that URI' },
  ]);
}
