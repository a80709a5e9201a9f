/**
 * The engine's own routes (served by the engine itself, not by a zone object) as the dispatcher and
 * their handlers both see them: the route shape, and the `ZoneDirectory` a handler acts on. Below
 * `dispatch.ts` and the route folders, so neither has to import the other to name these types.
 */
import type { HttpMethod } from './router.js';
import type { AccountInfo, ApiRequest, ApiResponse, PlanTier, ZoneInfo } from './types.js';

/** The zones of one engine, as the engine's own routes (`zones/routes.ts`) use them. */
export interface ZoneDirectory {
  /** Every zone, in creation order. */
  listZones(): Promise<ZoneInfo[]>;
  /** A zone by id or name (case-insensitive), or undefined. */
  getZone(nameOrId: string): Promise<ZoneInfo | undefined>;
  /** Creates a zone (default plan: enterprise). Refuses a taken or malformed name. */
  createZone(name: string, options?: { plan?: PlanTier; waf?: 'previous' | 'new'; id?: string; account?: string }): Promise<ZoneInfo>;
  /** Deletes a zone and all of its data; false when there is no such zone. */
  deleteZone(nameOrId: string): Promise<boolean>;
  /** Every account, the default one first. */
  listAccounts(): Promise<AccountInfo[]>;
  /** An account by id or name, or undefined. */
  getAccount(nameOrId: string): Promise<AccountInfo | undefined>;
  /** Creates an account (default plan: enterprise). Refuses a taken name or id. */
  createAccount(name: string, options?: { plan?: PlanTier; id?: string }): Promise<AccountInfo>;
}

/** A route the engine serves without a zone object. */
export interface EngineRoute {
  method: HttpMethod;
  pattern: string;
  handler(engine: ZoneDirectory, req: ApiRequest, params: Record<string, string>): Promise<ApiResponse>;
}
