/**
 * Which zone objects stay live. At most a few zone objects are live at once (one on a read-only
 * engine): the least recently used idle ones hibernate (their SQLite files and read memos are let
 * go), so a run over many zones, or a server of many, holds a few zones' storage at a time rather
 * than every zone it has touched. The engine asks this for a zone's stub on every call.
 */
import type { ObjectNamespace, ObjectStub } from '../storage/index.js';
import type { ZoneObjectApi } from './zone-object.js';

/** Zone objects kept live at once; more are hibernated, least recently used first. */
const LiveZoneObjects = 4;
/** The same for a read-only engine: it serves a plan, which reads each zone once, in turn. */
const LiveZoneObjectsReading = 1;

/** The zone objects' stubs, keeping at most `LiveZoneObjects` of them live (see the file's header). */
export class LiveZones {
  readonly #zonesNs: ObjectNamespace<ZoneObjectApi>;
  readonly #live: number;
  /** Ids of the zones whose objects may be live, least recently used first (see `stub`). */
  readonly #recent = new Map<string, true>();
  /** The last key of `#recent`. */
  #lastZone: string | undefined;

  constructor(zonesNs: ObjectNamespace<ZoneObjectApi>, readOnly: boolean) {
    this.#zonesNs = zonesNs;
    this.#live = readOnly ? LiveZoneObjectsReading : LiveZoneObjects;
  }

  /** The zone's object, made the most recently used; the least recently used idle ones over the limit hibernate. */
  stub(id: string): ObjectStub<ZoneObjectApi> {
    const live = this.#live;
    // Most calls go to the zone called last: it is already the most recent, and with no zone over
    // the limit left to hibernate, there is nothing to do.
    if (id === this.#lastZone && this.#recent.size <= live) return this.#zonesNs.get(id);
    this.#lastZone = id;
    this.#recent.delete(id);
    this.#recent.set(id, true);
    for (const old of this.#recent.keys()) {
      if (this.#recent.size <= live) break;
      if (old !== id && this.#zonesNs.hibernate(old)) this.#recent.delete(old);
    }
    return this.#zonesNs.get(id);
  }

  /** Zone objects live now, the others hibernated. */
  get size(): number {
    return this.#recent.size;
  }
}
