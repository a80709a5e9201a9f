/**
 * The v4 envelope every route answers with, its messages and the `result_info` of lists
 * (api-facts.md §1), and the HTTP methods the API uses. Shared by the engine's server and the
 * providers' client, so neither can drift from the other.
 */

/** HTTP methods the v4 API uses. */
export const HttpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** One HTTP method. */
export type HttpMethod = (typeof HttpMethods)[number];

/** The base path of the API on a host (`https://api.cloudflare.com/client/v4`). */
export const ApiBasePath = '/client/v4';

/** One message of an envelope's `errors` or `messages`. */
export interface ApiMessage {
  /** Some real errors have none (filter parse errors of validate-expr). */
  code?: number;
  message: string;
  source?: { pointer: string };
  meta?: Record<string, unknown>;
  error_chain?: ApiMessage[];
}

/** `result_info` of a list page (and of some bulk writes). */
export interface ResultInfo {
  page: number;
  per_page: number;
  /** Items on this page. */
  count: number;
  total_count: number;
  /** Sent by the real service's list examples, though its OAS omits it. */
  total_pages?: number;
}

/** The v4 response envelope. On failure `success` is false, `result` null and `errors` non-empty. */
export interface Envelope<T = unknown> {
  success: boolean;
  errors: ApiMessage[];
  /** Some failure bodies have `null` here (validate-expr, ruleset quota). */
  messages: ApiMessage[] | null;
  result: T;
  result_info?: ResultInfo;
}

/** Query parameters of every paginated list. */
export const PageParams = { page: 'page', perPage: 'per_page' } as const;

/** Page sizes of the filters and firewall rules lists (real service figures). */
export const PageLimits = { defaultPerPage: 25, minPerPage: 5, maxPerPage: 100 } as const;
