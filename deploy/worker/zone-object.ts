/**
 * One zone as a SQLite-backed Durable Object: the engine's zone object class (`zoneObjectClass`),
 * unchanged, over workerd's `ctx.storage`. This class only adapts it to workerd's RPC (public
 * methods of a `DurableObject`) and adds PITR by time, which the built-in host does not need.
 *
 * It also knows whether its zone exists (a row in its own `_zw_zone` table, written at creation,
 * gone with the zone's storage): the Worker's isolates cache the zone list, so an isolate may still
 * route to a zone another isolate deleted; such a call gets the unknown-zone 404, never an empty
 * zone recreated by the call.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  errorResponse, noRouteError, resources, zoneObjectClass,
  type ApiResponse, type ListReferenceInfo, type Sql, type ZoneCall, type ZoneCreateOptions, type ZoneDump, type ZoneInfo, type ZoneObjectApi, type ZoneObjectState,
} from '../../src/engine/workerd.js';
import { logError, planLimitsOf, type Settings } from './settings.js';

/** The Durable Object class of a zone (`ZONES` binding). */
export class ZoneObject extends DurableObject<Settings> {
  readonly #zone: ZoneObjectApi;
  readonly #sql: Sql;
  #exists: boolean;

  constructor(ctx: DurableObjectState, env: Settings) {
    super(ctx, env);
    const Zone = zoneObjectClass({ resources, planLimits: planLimitsOf(env), logError });
    // workerd's ctx is seed 001's interface; the engine types it with zonewall's storage classes.
    const state = ctx as unknown as ZoneObjectState;
    this.#zone = new Zone(state, env);
    this.#sql = state.storage.sql;
    this.#sql.exec('CREATE TABLE IF NOT EXISTS _zw_zone (id TEXT PRIMARY KEY)');
    this.#exists = this.#sql.exec<{ n: number }>('SELECT count(*) AS n FROM _zw_zone').one().n > 0;
  }

  /** One v4 call of the zone (one storage transaction per write). */
  handle(call: ZoneCall): ApiResponse {
    if (!this.#exists) return errorResponse(noRouteError(call.route.split(' ')[1]!.replace(/:([a-z_]+)/g, (_m, name: string) => call.params[name] ?? '')));
    return this.#zone.handle(call);
  }

  /** Zone creation: the resource modules' creation hooks. */
  init(zone: ZoneInfo, options: ZoneCreateOptions): void {
    this.#zone.init(zone, options);
    this.#sql.exec('INSERT OR REPLACE INTO _zw_zone (id) VALUES (?)', zone.id);
    this.#exists = true;
  }

  /** Zone deletion: all of the zone's storage. */
  async destroy(): Promise<void> {
    this.#exists = false;
    await this.#zone.destroy();
  }

  /** Every `$name` reference of the zone's rules (a list delete asks every zone of its account). */
  listReferences(zone: ZoneInfo): ListReferenceInfo[] {
    return this.#exists ? this.#zone.listReferences(zone) : [];
  }

  /** Every row of the zone's tables. */
  dump(): ZoneDump {
    return this.#zone.dump();
  }

  /** Replaces the zone's rows (importing a zone of the built-in runtime). */
  load(dump: ZoneDump): void {
    this.#zone.load(dump);
  }

  /** PITR: the bookmark of the zone's storage now. */
  bookmark(): Promise<string> {
    return this.#zone.bookmark();
  }

  /**
   * PITR: restores the zone to `bookmark`, or to its state at `time` (ms since the epoch) through
   * `ctx.storage.getBookmarkForTime`. The object restarts to apply it, so this call ends in a reset.
   */
  async restore(target: { bookmark: string } | { time: number }): Promise<void> {
    const bookmark = 'bookmark' in target ? target.bookmark : await this.ctx.storage.getBookmarkForTime(target.time);
    await this.#zone.restore(bookmark);
  }
}
