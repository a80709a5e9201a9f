/**
 * The Worker's bindings (`wrangler.jsonc`): the two Durable Object namespaces, beside the variables
 * and secrets of `settings.ts`. The Durable Object classes see only those settings (`DurableObject<Settings>`),
 * so the classes named here do not import this file back.
 */
import type { Settings } from './settings.js';
import type { ZoneObject } from './zone-object.js';
import type { ZoneRegistry } from './registry.js';
import type { AccountObject } from './account-object.js';

/** The Worker's bindings. */
export interface Env extends Settings {
  /** One SQLite-backed Durable Object per zone, named by zone id. */
  ZONES: DurableObjectNamespace<ZoneObject>;
  /** The zone registry: one Durable Object named `zones`. */
  REGISTRY: DurableObjectNamespace<ZoneRegistry>;
  /** One SQLite-backed Durable Object per account (its lists), named by account id. */
  ACCOUNTS: DurableObjectNamespace<AccountObject>;
}
