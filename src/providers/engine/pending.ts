/**
 * Zones the embedded engine plans before they exist. A manifest whose zone the state directory does
 * not have yet is planned against the zone as it would be created, and the zone is created only at
 * the first write: a plan, or an apply that writes nothing (refused at the prompt, stopped by a
 * safety check, nothing to do), leaves the state directory without it. Until then a scratch engine
 * in memory (no file anywhere) holds a zone of the same name, tier and id and answers its reads, so
 * the plan sees exactly what a new zone holds (the previous WAF's packages, the migration state)
 * and shows the id the zone will have.
 */
import { randomUUID } from 'node:crypto';
import { DefaultAccount, Engine, type ZoneInfo } from '../../engine/index.js';
import type { LiveZoneInfo, PlanTier } from '../../plan/index.js';

/** The zone id of a zone-scoped v4 path (`/zones/{id}` or `/zones/{id}/...`). */
const ZonePath = /^\/zones\/([0-9a-f]{32})(?:\/|$)/;

/** Zone-scoped routes that only read although they are not GETs: the engine's trace. */
const ReadOnlyPost = /^\/zones\/[0-9a-f]{32}\/trace$/;

/** The request tracer (and its batch, zonewall's): an account route whose zone is the host of the body's (first request's) URL. */
const TracerPath = /^\/accounts\/[^/]+\/request-tracer\/trace(?:\/batch)?$/;

/** A pending zone as the run sees it: it will be created in the engine's default account. */
function pendingInfo(zone: ZoneInfo): LiveZoneInfo {
  return { id: zone.id, name: zone.name, plan: zone.plan, account: { id: DefaultAccount.id, name: DefaultAccount.name } };
}

/** The zones a run planned before they existed, and the ones it then created. */
export class PendingZones {
  readonly #engine: Engine;
  readonly #byId = new Map<string, ZoneInfo>();
  readonly #creating = new Map<string, Promise<void>>();
  /** The WAF generation of pending zones created `new` (the others are created with the engine's default). */
  readonly #waf = new Map<string, 'previous' | 'new'>();
  #scratch: Promise<Engine> | undefined;
  /** Zones created at their first write, in creation order. */
  readonly created: LiveZoneInfo[] = [];

  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /** The pending zone of that name, if the run already planned it. */
  byName(name: string): LiveZoneInfo | undefined {
    const key = name.trim().toLowerCase();
    const zone = [...this.#byId.values()].find((z) => z.name === key);
    return zone === undefined ? undefined : pendingInfo(zone);
  }

  /** Plans a zone that does not exist: it reads as new and is created at its first write (with `id`, when given). */
  async add(name: string, plan: PlanTier, id?: string, waf?: 'previous' | 'new'): Promise<LiveZoneInfo> {
    const known = this.byName(name);
    if (known !== undefined) return known;
    const engine = await this.#scratchEngine();
    const zone = await engine.createZone(name, { plan, ...(id !== undefined ? { id } : {}), ...(waf !== undefined ? { waf } : {}) });
    this.#byId.set(zone.id, zone);
    if (waf !== undefined) this.#waf.set(zone.id, waf);
    return pendingInfo(zone);
  }

  /**
   * The engine that answers a v4 call: the scratch engine for a read of a pending zone; for a write
   * to one, the state directory's engine, once the zone has been created there.
   */
  async engineFor(method: string, path: string, body?: unknown): Promise<Engine> {
    if (method.toUpperCase() === 'POST' && TracerPath.test(path)) return this.#tracerEngine(body);
    const id = ZonePath.exec(path)?.[1];
    if (id === undefined) return this.#engine;
    const reads = method.toUpperCase() === 'GET' || (method.toUpperCase() === 'POST' && ReadOnlyPost.test(path));
    if (reads && this.#byId.has(id)) return this.#scratchEngine();
    await this.create(id);
    return this.#engine;
  }

  /** Creates a pending zone in the state directory now (its first write is next); nothing when it is not pending. */
  create(id: string): Promise<void> {
    const zone = this.#byId.get(id);
    if (zone === undefined) return this.#creating.get(id) ?? Promise.resolve();
    // Concurrent first writes share one creation.
    const waf = this.#waf.get(id);
    const creating = this.#engine.createZone(zone.name, { plan: zone.plan, id, ...(waf !== undefined ? { waf } : {}) }).then((made) => {
      this.created.push({ id: made.id, name: made.name, plan: made.plan });
    });
    this.#byId.delete(id);
    this.#creating.set(id, creating);
    return creating;
  }

  /** Closes the scratch engine. */
  async close(): Promise<void> {
    const scratch = this.#scratch;
    this.#scratch = undefined;
    if (scratch !== undefined) await (await scratch).close();
  }

  /** The scratch engine when the traced URL's host is a pending zone (or a subdomain of one), else the state directory's. */
  #tracerEngine(body: unknown): Promise<Engine> {
    const requests = (body as { requests?: unknown } | null)?.requests;
    const first = Array.isArray(requests) ? (requests[0] as unknown) : body;
    const url = (first as { url?: unknown } | null)?.url;
    const host = typeof url === 'string' && URL.canParse(url) ? new URL(url).hostname.toLowerCase() : '';
    const pending = [...this.#byId.values()].some((z) => host === z.name || host.endsWith(`.${z.name}`));
    return pending ? this.#scratchEngine() : Promise.resolve(this.#engine);
  }

  #scratchEngine(): Promise<Engine> {
    this.#scratch ??= Engine.open({ dir: `zonewall-new-zones-${randomUUID()}`, memory: true, limits: this.#engine.planLimits, strict: this.#engine.strict });
    return this.#scratch;
  }
}
