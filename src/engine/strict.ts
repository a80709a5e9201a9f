/**
 * `serve --strict`: the engine answers with the real API's shapes only. The zonewall extensions it
 * otherwise adds are listed here once: routes the real service does not have (zone create and
 * delete, the trace), and fields it does not send (`locked` on filters, also inside a rule's
 * filter; `plan_tier` on zones; `waf_state` in the migration status; `phase` and `reasons` in the
 * migration check, whose reasons then go where the real API puts them: `messages`, as
 * `{code, message}` each, which the provider reads; `zonewall` in the request tracer's result). A strict engine leaves the
 * routes out of its router (so they answer 404 7003 like any unknown path) and drops the fields
 * from each answer, copying what it changes: answers may share objects with the read memo.
 */
import { AccountExtensionRoutes, AccountPaths, FilterPaths, FirewallRulePaths, MigrationRoutes, RequestTracerBatchRoute, RequestTracerRoute, ZoneExtensionRoutes, ZonePaths, type MigrationReason } from '../api/index.js';
import type { ApiResponse } from './types.js';

/** Route keys (`METHOD pattern`) that only a non-strict engine serves. */
export const ExtensionRoutes: ReadonlySet<string> = new Set([...ZoneExtensionRoutes, ...AccountExtensionRoutes, 'POST /zones/:zone_id/trace', 'POST /zones/:zone_id/trace/burst', `POST ${RequestTracerBatchRoute}`]);

type Item = Record<string, unknown>;

const withoutKey = (key: string) => (item: Item): Item => {
  if (!(key in item)) return item;
  const { [key]: _dropped, ...rest } = item;
  return rest;
};

const ruleWithoutLocked = (item: Item): Item => {
  const filter = item.filter;
  if (filter === null || typeof filter !== 'object' || !('locked' in filter)) return item;
  return { ...item, filter: withoutKey('locked')(filter as Item) };
};

/** Extension fields to drop, by route pattern. */
const FieldDrops: Record<string, (item: Item) => Item> = {
  [FilterPaths.collection]: withoutKey('locked'),
  [FilterPaths.item]: withoutKey('locked'),
  [FirewallRulePaths.collection]: ruleWithoutLocked,
  [FirewallRulePaths.item]: ruleWithoutLocked,
  [ZonePaths.collection]: withoutKey('plan_tier'),
  [ZonePaths.item]: withoutKey('plan_tier'),
  [AccountPaths.collection]: withoutKey('plan_tier'),
  [AccountPaths.item]: withoutKey('plan_tier'),
  [MigrationRoutes.status]: withoutKey('waf_state'),
  [MigrationRoutes.check]: (item) => withoutKey('phase')(withoutKey('reasons')(item)),
  [RequestTracerRoute]: withoutKey('zonewall'),
};

/** Envelope `messages` an answer gains under strict, from the extension fields dropped from it. */
const MovedToMessages: Record<string, (result: Item) => MigrationReason[]> = {
  [MigrationRoutes.check]: (result) => (Array.isArray(result.reasons) ? (result.reasons as MigrationReason[]) : []),
};

/**
 * Stripped answers by the answer they were made from: a memoised answer comes back as the same
 * object on every repeat read, and so does its stripped copy, whose bytes the server then keeps.
 */
const stripped = new WeakMap<ApiResponse, ApiResponse>();

/** The answer of route `pattern` without zonewall's extension fields. */
export function withoutExtensions(pattern: string, response: ApiResponse): ApiResponse {
  const drop = FieldDrops[pattern];
  const result = response.body.result;
  if (drop === undefined || result === null || typeof result !== 'object') return response;
  let out = stripped.get(response);
  if (out === undefined) {
    const each = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? drop(v as Item) : v);
    const moved = Array.isArray(result) ? [] : (MovedToMessages[pattern]?.(result as Item) ?? []);
    const messages = moved.length === 0 ? response.body.messages : [...(response.body.messages ?? []), ...moved.map((m) => ({ code: m.code, message: m.message }))];
    // Not the bytes of the unstripped body (`json`), if the answer came as bytes.
    const { json: _bytes, ...rest } = response;
    out = { ...rest, body: { ...response.body, result: Array.isArray(result) ? result.map(each) : each(result), messages } };
    stripped.set(response, out);
  }
  return out;
}
