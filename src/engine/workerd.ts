/**
 * The engine as the Worker on workerd uses it (`deploy/worker`): the v4 front, the Fetch API
 * handler, the zone and registry object classes and the zone directory, and nothing that needs
 * Node's file system or better-sqlite3, so the Worker's bundle holds only code workerd runs. The
 * zone object here is the same class the built-in host runs; workerd gives it `ctx.storage`.
 */
export { V4Dispatcher, type ZoneDirectory, type DispatcherOptions } from './dispatch.js';
export { handleFetch, ApiPrefix, type FetchSettings } from './server/fetch.js';
export { CredentialStore } from './server/auth.js';
export { DefaultMaxBodyBytes } from './server/body.js';
export { serveCredentialsFromEnv, readCredentialsText, type Credential } from './server/credentials.js';
export { zoneObjectClass, type ZoneObjectApi, type ZoneObjectState, type ZoneCall } from './zone-object.js';
export { accountObjectClass, type AccountCall, type AccountObjectApi, type AccountObjectState } from './account-object.js';
export type { ListCatalogEntry } from './lists/catalog.js';
export type { ListReferenceInfo } from './lists/context.js';
export { RegistryObject, type RegistryApi, type RegistryState } from './zones/registry.js';
export { RegistryDirectory, type RegistryPort, type ZoneObjectPort } from './zones/directory.js';
export { resources } from './resources.js';
export { readPlanLimitsText, resolvePlanLimits, validatePlanLimits, type PlanLimitsOverride } from './limits.js';
export { ApiError } from './api-errors.js';
export { errorResponse, failureResponse, noRouteError, ok } from './envelope.js';
export { isId } from './ids.js';
export type { ZoneCreateOptions } from './context.js';
export type { AccountInfo, ApiRequest, ApiResponse, PlanTier, ZoneInfo } from './types.js';
export { dumpZone, loadZone, type ZoneDump } from './zone-dump.js';
export { zoneInScope, type EngineRoute } from './zones/routes.js';
export { BodyReader, Problems, requireObject } from './body-reader.js';
export type { Sql } from './sql.js';
export { fromWire, toWire, type WireAnswer } from './wire-answer.js';
