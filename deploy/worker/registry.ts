/**
 * The zone registry as a SQLite-backed Durable Object (`REGISTRY` binding, one object named
 * `zones`): the engine's registry class, unchanged, so listing and creating zones across zones
 * works as on the built-in host. Zone calls never go through it: the Worker caches the zones per
 * isolate and asks again on a miss (`RegistryDirectory`).
 */
import { DurableObject } from 'cloudflare:workers';
import { RegistryObject, type AccountInfo, type RegistryState, type ZoneInfo } from '../../src/engine/workerd.js';
import type { Settings } from './settings.js';

/** The Durable Object class of the registry. */
export class ZoneRegistry extends DurableObject<Settings> {
  readonly #registry: RegistryObject;

  constructor(ctx: DurableObjectState, env: Settings) {
    super(ctx, env);
    this.#registry = new RegistryObject(ctx as unknown as RegistryState, env);
  }

  /** Every zone, in creation order. */
  list(): ZoneInfo[] {
    return this.#registry.list();
  }

  /** Registers a zone; false when its name or id is taken. */
  add(zone: ZoneInfo): boolean {
    return this.#registry.add(zone);
  }

  /** Unregisters a zone; false when unknown. */
  remove(id: string): boolean {
    return this.#registry.remove(id);
  }

  /** Every account, the default one first. */
  accounts(): AccountInfo[] {
    return this.#registry.accounts();
  }

  /** Registers an account; false when its name or id is taken. */
  addAccount(account: AccountInfo): boolean {
    return this.#registry.addAccount(account);
  }
}
