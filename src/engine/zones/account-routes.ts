/**
 * The account routes the engine serves itself: `GET /accounts` (the real API's list, with `name`,
 * `page`, `per_page`), `GET /accounts/{id}`, and the engine extension `POST /accounts`
 * `{name, plan_tier?}` (absent from `serve --strict`; there, create accounts with
 * `zonewall engine account create`). A zone-scoped credential sees the accounts of its zones only,
 * and may not create one.
 */
import { AccountPaths, ListErrors, PlanTiers } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import { BodyReader, Problems, requireObject } from '../body-reader.js';
import type { EngineRoute, ZoneDirectory } from '../engine-route.js';
import { ok, page, parsePageRequest } from '../envelope.js';
import { allZones, inScope } from '../scope.js';
import type { AccountInfo, ApiRequest, ApiResponse } from '../types.js';
import { accountIdOf, accountToJson } from './accounts.js';

/** Routes of the accounts collection. */
export const accountRoutes: EngineRoute[] = [
  { method: 'GET', pattern: AccountPaths.collection, handler: listAccounts },
  { method: 'POST', pattern: AccountPaths.collection, handler: createAccount },
  { method: 'GET', pattern: AccountPaths.item, handler: getAccount },
];

/** The accounts the caller may see: all, or those of its zones. */
async function visible(engine: ZoneDirectory, req: ApiRequest): Promise<AccountInfo[]> {
  const accounts = await engine.listAccounts();
  if (allZones(req.auth)) return accounts;
  const ids = new Set((await engine.listZones()).filter((z) => inScope(req.auth, z)).map(accountIdOf));
  return accounts.filter((a) => ids.has(a.id));
}

async function listAccounts(engine: ZoneDirectory, req: ApiRequest): Promise<ApiResponse> {
  const query = req.query ?? new URLSearchParams();
  const request = parsePageRequest(query, { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50 });
  const name = query.get('name');
  const accounts = (await visible(engine, req)).filter((a) => name === null || name === '' || a.name === name);
  return page(accounts.slice(request.offset, request.offset + request.perPage).map(accountToJson), request, accounts.length);
}

async function getAccount(engine: ZoneDirectory, req: ApiRequest, params: Record<string, string>): Promise<ApiResponse> {
  const account = (await visible(engine, req)).find((a) => a.id === params.account_id);
  if (account === undefined) {
    if (!allZones(req.auth)) throw ApiError.of('forbidden', 'Authentication error');
    throw ApiError.from(ListErrors.accountNotFound, `account ${params.account_id} not found`);
  }
  return ok(accountToJson(account));
}

async function createAccount(engine: ZoneDirectory, req: ApiRequest): Promise<ApiResponse> {
  if (!allZones(req.auth)) throw ApiError.of('forbidden', 'Authentication error: zone-scoped credentials may not create accounts');
  const problems = new Problems();
  const r = new BodyReader(requireObject(req.body, 'the account to create, {"name": ..., "plan_tier": ...}'), '', problems);
  r.allowOnly(['name', 'plan_tier', 'type']);
  const name = r.string('name', { required: true, nonEmpty: true, maxLength: 100 });
  const plan = r.oneOf('plan_tier', PlanTiers);
  r.oneOf('type', ['standard', 'enterprise'] as const);
  problems.throwIfAny();
  return ok(accountToJson(await engine.createAccount(name!, plan !== undefined ? { plan } : {})));
}
