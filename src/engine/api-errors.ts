/**
 * The engine's API errors: the numeric codes the v4 envelope carries, and `ApiError`, which a
 * handler throws to refuse a request. A thrown `ApiError` rolls back the request's storage
 * transaction and becomes an error envelope at one boundary (`zone-object.ts` / `engine.ts`).
 *
 * The codes and their statuses are the wire contract's (`../api/errors.ts`), written once for the
 * server and the client; resource folders with codes of their own keep them in their `constants.ts`.
 */
import { ZonewallError } from '../errors.js';
import { ApiErrorCodes, type ApiErrorEntry, type ApiErrorKind } from '../api/index.js';
import type { ApiMessage } from './types.js';

export { ApiErrorCodes, type ApiErrorEntry, type ApiErrorKind };

/** Optional parts of one error message. */
export interface ApiErrorDetail {
  /** JSON pointer into the request body (`/0/filter/expression`) or `?per_page` for a query parameter. */
  pointer?: string;
  meta?: Record<string, unknown>;
  chain?: ApiMessage[];
}

/** Builds one envelope message of a given kind. */
export function apiMessage(kind: ApiErrorKind, message: string, detail: ApiErrorDetail = {}): ApiMessage {
  return entryMessage(ApiErrorCodes[kind], message, detail);
}

/** Builds one envelope message of a table entry: its code, the message and the optional parts. */
export function entryMessage(entry: ApiErrorEntry, message: string, detail: ApiErrorDetail = {}): ApiMessage {
  const m: ApiMessage = { code: entry.code, message };
  if (detail.pointer !== undefined) m.source = { pointer: detail.pointer };
  if (detail.meta !== undefined) m.meta = detail.meta;
  if (detail.chain !== undefined) m.error_chain = detail.chain;
  return m;
}

/** A refused request: the HTTP status and every reason, ready for the error envelope. */
export class ApiError extends ZonewallError {
  readonly status: number;
  readonly errors: ApiMessage[];
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, errors: ApiMessage[], headers?: Record<string, string>) {
    super('ERR_API', errors.map((e) => (e.code !== undefined ? `${e.message} (${e.code})` : e.message)).join('; '));
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }

  /** One error of a registered kind, with its usual HTTP status. */
  static of(kind: ApiErrorKind, message: string, detail?: ApiErrorDetail): ApiError {
    return ApiError.from(ApiErrorCodes[kind], message, detail);
  }

  /** One error of a resource folder's table entry (`RulesetErrors.unknownRule`, ...), with its status. */
  static from(entry: ApiErrorEntry, message: string, detail?: ApiErrorDetail): ApiError {
    return new ApiError(entry.status, [entryMessage(entry, message, detail)]);
  }
}
