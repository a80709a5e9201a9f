/**
 * The resource modules of a zone: the one list that says which tables a zone object has and which
 * v4 routes it serves. Engine part 2 (rulesets, previous WAF, migration, trace) plugs in here.
 *
 * How to add a module (e.g. `rulesets/index.ts`):
 * 1. Export a `ResourceModule` (`context.ts`): `{ name, schema, routes, onCreate? }`.
 *    - `schema`: DDL strings run when a zone object starts (also after a PITR restore) and an object
 *      they create is missing (`zone-schema.ts`), so each must be one idempotent statement
 *      (`CREATE TABLE IF NOT EXISTS ...`; any other statement makes every start run them all). Name tables after the module
 *      (`rulesets`, `waf_packages`, ...); `filters` and `firewall_rules` are taken.
 *    - `routes`: `{ method, pattern, handler, cacheable? }`, patterns starting `/zones/:zone_id/`
 *      (relative to `/client/v4`), `:name` segments are path parameters (`ctx.params.name`).
 *      `cacheable: true` (GET only) lets the zone object repeat a 200 answer from memory until
 *      the next write request; set it only when the answer depends on stored data and the
 *      request alone (not the clock, not data written by an alarm).
 *    - `onCreate(ctx)`: optional, runs once in the zone-creation transaction (seed data; it gets
 *      the zone, its tier limits and `Engine.createZone`'s options such as `waf`).
 * 2. Add it to `resources` below. The engine router, 404/405 answers, auth scope checks and the
 *    per-request transaction then apply to it with no other change.
 *
 * What a handler gets (`ZoneRequestContext`): `sql` (the zone's `ctx.storage.sql`, inside the
 * request's transaction), `zone` (id, name, plan), `limits` (its tier's quotas and entitlements),
 * `planLimits` (all tiers), `params`, `query`, `body` (parsed JSON or undefined) and `now`
 * (RFC 3339, one per request). Handlers are synchronous and return an `ApiResponse` built with
 * `envelope.ts` (`ok`, `page` + `parsePageRequest`, `errorResponse`), or throw `ApiError`
 * (`api-errors.ts`: add new codes to `ApiErrorCodes`) to refuse: a throw rolls the transaction back,
 * a returned response (even `success: false`) commits. GET handlers run without a transaction
 * (faster lists) and must not write. Validate bodies with `body-reader.ts`
 * (unknown fields are refused by `allowOnly`), and assign ids and timestamps with `ids.ts`.
 */
import type { ResourceModule } from './context.js';
import { filterRoutes } from './filters/handlers.js';
import { filtersSchema } from './filters/store.js';
import { firewallRuleRoutes } from './firewall-rules/handlers.js';
import { firewallRulesSchema } from './firewall-rules/store.js';
import { migrationResource } from './migration/index.js';
import { pageRulesResource } from './page-rules/index.js';
import { previousWafResource } from './previous-waf/index.js';
import { rulesetsResource } from './rulesets/index.js';
import { traceResource } from './trace/index.js';

/** The filters API. */
const filtersResource: ResourceModule = { name: 'filters', schema: filtersSchema, routes: filterRoutes };

/** The firewall rules API. */
const firewallRulesResource: ResourceModule = { name: 'firewall rules', schema: firewallRulesSchema, routes: firewallRuleRoutes };

/** Every resource module of a zone, in schema order (a module's tables may reference earlier ones). */
export const resources: readonly ResourceModule[] = [
  filtersResource,
  firewallRulesResource,
  // Engine part 2: the WAF state (and `waf` at zone creation), the Rulesets API entry point, the
  // previous WAF, and the trace.
  migrationResource,
  rulesetsResource,
  previousWafResource,
  traceResource,
  // Seed 002's Page Rules (disable_security, waf): read by the migration and the trace.
  pageRulesResource,
];
