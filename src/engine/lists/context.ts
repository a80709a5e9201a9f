/**
 * What a Lists route's handler gets inside the account object, and the route shape. Like zone
 * routes (`context.ts`), handlers are synchronous and run in one storage transaction: a thrown
 * `ApiError` leaves the account's lists as they were.
 */
import type { HttpMethod } from '../router.js';
import type { Sql } from '../sql.js';
import type { AccountInfo, ApiResponse } from '../types.js';

/** One rule (of any zone of the account) that references a list. */
export interface ListReferenceInfo {
  /** The list's name, without `$`. */
  list: string;
  zone_id: string;
  zone_name: string;
  /** Which rule, in words: `firewall rule <id> (filter <id>)`, `rule <ref> of http_request_firewall_custom`, … */
  rule: string;
}

/** The request context of a Lists route handler. */
export interface AccountRequestContext {
  readonly sql: Sql;
  readonly account: AccountInfo;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  /** RFC 3339 time of this request. */
  readonly now: string;
  /** Every reference to a list from the account's zones (only for routes with `references: true`). */
  readonly references: readonly ListReferenceInfo[];
  /** Polls an operation answers `pending`/`running` before its final status (test hook; default 0). */
  readonly operationPolls: number;
}

/** A route served inside an account's object. Patterns start with `/accounts/:account_id/`. */
export interface AccountRoute {
  method: HttpMethod;
  pattern: string;
  handler(ctx: AccountRequestContext): ApiResponse;
  /** The handler needs `references` (the dispatcher asks every zone of the account first). */
  references?: boolean;
}
