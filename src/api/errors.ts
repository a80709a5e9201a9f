/**
 * Every error code of the v4 routes the engine serves for zones, filters and firewall rules, with
 * the HTTP status it goes with. Codes are the real service's where the reference (`api-facts.md`)
 * confirms one; the others are zonewall's choices in the 10xxx range of the firewall APIs. The
 * client branches on the same table, so a code is written once.
 */

/** One error of the table: its code and HTTP status. */
export interface ApiErrorEntry {
  code: number;
  status: number;
}

/** Every error code of the shared routes, and the HTTP status it goes with. */
export const ApiErrorCodes = {
  /** Real: missing credential headers. */
  missingCredentials: { code: 9106, status: 401 },
  /** Real: unknown X-Auth-Email / X-Auth-Key pair. */
  unknownKey: { code: 9103, status: 403 },
  /** Real: unknown bearer token. */
  invalidToken: { code: 9109, status: 403 },
  /** Real: malformed credential headers (error_chain holds 6102 / 6103 / 6111). */
  invalidHeaders: { code: 6003, status: 400 },
  /** Real: valid credentials without access to this zone. */
  forbidden: { code: 10000, status: 403 },
  /** Real: no route for that URI (7003 is accompanied by 7000). */
  noRoute: { code: 7003, status: 404 },
  /** zonewall: the route exists but not for this method (405, `Allow` header set). */
  methodNotAllowed: { code: 7001, status: 405 },
  /** Real (3P): firewall rule not found. */
  ruleNotFound: { code: 10001, status: 404 },
  /** zonewall: filter not found. */
  filterNotFound: { code: 10002, status: 404 },
  /** zonewall: zone not found (for `/zones/{id}` itself). */
  zoneNotFound: { code: 1001, status: 404 },
  /** zonewall: the body is not valid JSON. */
  malformedJson: { code: 10011, status: 400 },
  /** zonewall: a body was sent with a Content-Type other than application/json. */
  unsupportedMediaType: { code: 10012, status: 415 },
  /** zonewall: the body is larger than the server's limit (1 MiB by default). */
  bodyTooLarge: { code: 10013, status: 413 },
  /** zonewall: a field is missing, has the wrong type, is too long, or is unknown. */
  invalidField: { code: 10014, status: 400 },
  /** zonewall: an expression does not parse (message: the engine's `Filter parsing error (L:C)`). */
  invalidExpression: { code: 10015, status: 400 },
  /** zonewall: a firewall rule references a filter id that does not exist. */
  unknownFilterReference: { code: 10016, status: 400 },
  /** zonewall: a query parameter (page, per_page, paused, id) is invalid. */
  invalidQuery: { code: 10017, status: 400 },
  /** Real: a filter's expression duplicates an existing filter's (`meta.id` = the existing filter). */
  duplicateFilter: { code: 10102, status: 400 },
  /** zonewall: deleting a filter that firewall rules still reference (the message names them). */
  filterInUse: { code: 10103, status: 400 },
  /**
   * zonewall: PUT or DELETE through the filters API of a filter created by the simplified flow.
   * Clients that cannot see `locked` learn it from this refusal.
   */
  filterLocked: { code: 10104, status: 400 },
  /** zonewall: the zone's plan allows no more active (non-paused) firewall rules. */
  quotaExceeded: { code: 10200, status: 400 },
  /** zonewall: a feature (the `log` action, the `matches` operator) that the zone's plan lacks. */
  featureUnavailable: { code: 10201, status: 400 },
  /** Real (message unconfirmed): an inline filter of a firewall rule POST is refused. */
  inlineFilterRefused: { code: 10202, status: 400 },
  /**
   * zonewall message (not an error): in a refused simplified-flow POST (quota or feature), an
   * inline filter that was created anyway; `meta.id` is its id, `meta.index` its rule's index.
   */
  inlineFilterCreated: { code: 10203, status: 200 },
  /** zonewall message (not an error): a filter deleted with its last rule (`delete_filter_if_unused`). */
  filterDeletedWithRule: { code: 10204, status: 200 },
  /** zonewall: a zone name is taken (zone creation). */
  zoneExists: { code: 1061, status: 400 },
  /** zonewall: an unexpected failure; details go to the server's stderr, never to the client. */
  internal: { code: 10500, status: 500 },
} as const satisfies Record<string, ApiErrorEntry>;

/** The name of one error code. */
export type ApiErrorKind = keyof typeof ApiErrorCodes;

/** Credential refusals (real codes): a client must surface them, never read them as "absent". */
export const AuthErrorCodes = [6003, 9103, 9106, 9109, 10000] as const;
