/**
 * Zones over the v4 API (`/zones`): finding a zone by id or name (one lookup each, or one zones list
 * for a run of many manifests when its pages cost no more than the lookups), remembering what was
 * found, whether the service sends zonewall's extension fields for it, and its account (for the
 * account's request tracer). The provider (`v4-provider.ts`) resolves zones through this.
 */
import type { LiveZoneInfo, PlanTier } from '../../plan/index.js';
import { ApiErrorCodes, PlanTiers, type ZoneExtensionJson, type ZoneJson } from '../../api/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { V4Limits, V4Paths } from './constants.js';
import { ServiceError } from './errors.js';

/** A zone as `GET /zones` lists it: the real shape, the engine's `plan_tier` when it sends it; other services may send less. */
type ZoneItem = Pick<ZoneJson, 'id' | 'name'> & Partial<Pick<ZoneJson, 'account'>> & { plan?: { legacy_id?: string } } & Partial<ZoneExtensionJson>;

/** A zone id: 32 lowercase hex. */
export const ZoneIdPattern = /^[0-9a-f]{32}$/;
/** The service's code for a zone outside the credential's scope (a 403). */
const OutOfScopeCode = ApiErrorCodes.forbidden.code;
/** Plan tiers by name (the wire contract's). */
const Tiers: readonly string[] = PlanTiers;

/** The zones one provider has looked up (see the file's header). */
export class ZoneLookup {
  readonly #client: V4Client;
  /** Zones resolved so far, so `readZone` does not look the zone up again. */
  readonly #known = new Map<string, LiveZoneInfo>();
  /** The account's zones by lower-case name, once `preload` listed them all. */
  #listed: Map<string, LiveZoneInfo> | undefined;
  /** Zones seen on a first page of the zones list, when the whole list was not read. */
  readonly #partial = new Map<string, LiveZoneInfo>();
  /**
   * Zones whose service sends zonewall's extension fields (`plan_tier` on the zone), and so marks
   * simplified-flow filters `locked`. The real service (and `serve --strict`) does neither.
   */
  readonly #withExtensions = new Set<string>();
  /** The account of each zone the request tracer was called for. */
  readonly #accounts = new Map<string, string>();

  constructor(client: V4Client) {
    this.#client = client;
  }

  /** Remembers a resolved zone, so `known` finds it without a call. */
  remember(zone: LiveZoneInfo): LiveZoneInfo {
    this.#known.set(zone.id, zone);
    this.#listed?.set(zone.name.toLowerCase(), zone);
    return zone;
  }

  /**
   * One zones list for a run of many manifests, instead of one lookup each, when its pages are
   * no more than the lookups it replaces (an account of 10,000 zones is not listed for 3 manifests).
   */
  async preload(zones: readonly string[], expected = 0): Promise<void> {
    const names = Math.max(expected, new Set(zones.filter((z) => !ZoneIdPattern.test(z)).map((z) => z.toLowerCase())).size);
    if (names < 2 || this.#listed !== undefined) return;
    const perPage = V4Limits.zonesPerPage;
    const first = await this.#client.firstPage<ZoneItem>(V4Paths.zones(), {}, perPage, AnswerShapes.zone);
    // Page 1 replaced one lookup; list the rest only if they cost no more than the other lookups.
    if (first.pages === undefined || first.pages - 1 > names - 1) {
      this.#preloadFrom(first.items, false);
      return;
    }
    this.#preloadFrom(await this.#client.allPages(first, V4Paths.zones(), {}, perPage, AnswerShapes.zone), true);
  }

  /** Remembers listed zones; `complete` when the list was the whole account's. */
  #preloadFrom(items: readonly ZoneItem[], complete: boolean): void {
    const byName = new Map(items.map((z) => [z.name.toLowerCase(), this.#toZoneInfo(z)] as const));
    if (complete) this.#listed = byName;
    else for (const [name, info] of byName) this.#partial.set(name, info);
  }

  /** The zone by id (32 hex) or by name; undefined when the service has no such zone. */
  async find(zone: string): Promise<LiveZoneInfo | undefined> {
    const name = zone.toLowerCase();
    if (this.#listed !== undefined && !ZoneIdPattern.test(zone)) return this.#listed.get(name);
    const seen = this.#partial.get(name);
    if (seen !== undefined) return seen;
    if (ZoneIdPattern.test(zone)) {
      try {
        return this.#toZoneInfo(await this.#client.result<ZoneItem>('GET', V4Paths.zone(zone), { shape: AnswerShapes.zone }));
      } catch (err) {
        // 404, or 403 "outside the credential's zones" (10000): to this credential, there is no such zone.
        if (err instanceof ServiceError && (err.status === 404 || (err.status === 403 && err.errors.some((e) => e.code === OutOfScopeCode)))) return undefined;
        throw err;
      }
    }
    const items = await this.#client.result<ZoneItem[]>('GET', V4Paths.zones(), { query: { name: zone }, shape: [AnswerShapes.zone] });
    const match = items.find((z) => z.name.toLowerCase() === zone.toLowerCase());
    return match === undefined ? undefined : this.#toZoneInfo(match);
  }

  /** A zone resolved before (by `remember`), or undefined. */
  known(zoneId: string): LiveZoneInfo | undefined {
    return this.#known.get(zoneId);
  }

  /** Whether the service sends zonewall's extension fields for this zone (see `#withExtensions`). */
  hasExtensions(zoneId: string): boolean {
    return this.#withExtensions.has(zoneId);
  }

  /** A zone list item as `LiveZoneInfo`; the plan tier from `plan.legacy_id` (the engine's `plan_tier` agrees). */
  #toZoneInfo(item: ZoneItem): LiveZoneInfo {
    if (item.plan_tier !== undefined) this.#withExtensions.add(item.id);
    const tier = item.plan?.legacy_id ?? item.plan_tier;
    const info: LiveZoneInfo = { id: item.id, name: item.name };
    if (Tiers.includes(tier ?? '')) info.plan = tier as PlanTier;
    if (typeof item.account?.id === 'string') info.account = { id: item.account.id, name: item.account.name };
    return info;
  }

  /** The zone's account (read from the zone once). */
  async accountOf(zoneId: string): Promise<string> {
    let account = this.#accounts.get(zoneId);
    if (account === undefined) {
      account = (await this.#client.result<{ account: { id: string } }>('GET', V4Paths.zone(zoneId), { shape: AnswerShapes.zoneAccount })).account.id;
      this.#accounts.set(zoneId, account);
    }
    return account;
  }
}
