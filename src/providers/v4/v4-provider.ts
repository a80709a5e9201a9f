/**
 * The `Provider` implementation both providers share: every operation is a v4 call through a
 * `V4Client`, so the embedded engine and a remote service behave identically. Subclasses add what
 * differs: how a missing zone is handled (`createZone`), PITR, and closing.
 */
import type {
  RulePosition,
  EntrypointBody,
  FilterBody,
  FirewallRuleBody,
  LiveFilter,
  LiveFirewallRule,
  LiveMigrationStatus,
  LivePageRule,
  LiveRuleset,
  LiveSection,
  LiveZone,
  LiveZoneInfo,
  PageRuleBody,
  PhaseBody,
  PhaseRuleBody,
  PhaseStep,
  PlanTier,
} from '../../plan/index.js';
import {
  ApiErrorCodes, PlanTiers,
  type BulkOperationJson, type ListCreateBody, type ListItemBody, type ListItemJson, type ListJson, type ListUpdateBody, type ServedPhase, type TracerBatchBody, type TracerBatchResult, type TracerRequestBody, type TracerResult, type ZoneExtensionJson, type ZoneJson,
} from '../../api/index.js';
import type { BurstTrace, BurstTraceRequest } from '../../api/index.js';
import type { ListOperationWaitOptions, MigrationCheck, Provider, ProviderStats, TraceRequest, TraceResult } from '../provider.js';
import { V4Client } from './client.js';
import { V4Limits, V4Paths } from './constants.js';
import { ProviderError, ServiceError } from './errors.js';
import * as migration from './migration.js';
import * as pageRules from './page-rules.js';
import * as previousWaf from './previous-waf.js';
import { readZone } from './read-zone.js';
import type { Transport } from './transport.js';
import * as phases from './rules-phase.js';
import * as firewall from './firewall.js';
import * as lists from './lists.js';

/** A zone as `GET /zones` lists it: the real shape, the engine's `plan_tier` when it sends it; other services may send less. */
type ZoneItem = Pick<ZoneJson, 'id' | 'name'> & Partial<Pick<ZoneJson, 'account'>> & { plan?: { legacy_id?: string } } & Partial<ZoneExtensionJson>;

const ZoneIdPattern = /^[0-9a-f]{32}$/;
/** The service's code for a zone outside the credential's scope (a 403). */
const OutOfScopeCode = ApiErrorCodes.forbidden.code;
/** Plan tiers by name (the wire contract's). */
const Tiers: readonly string[] = PlanTiers;

/** A `Provider` over any v4 `Transport`. */
export abstract class V4Provider implements Provider {
  abstract readonly kind: 'engine' | 'http';
  abstract readonly description: string;
  protected readonly client: V4Client;
  /** Zones resolved so far, so `readZone` does not look the zone up again. */
  private readonly known = new Map<string, LiveZoneInfo>();
  /** The account's zones by lower-case name, once `preloadZones` listed them all. */
  private listed: Map<string, LiveZoneInfo> | undefined;
  /** Zones seen on a first page of the zones list, when the whole list was not read. */
  private readonly partial = new Map<string, LiveZoneInfo>();
  /**
   * Zones whose service sends zonewall's extension fields (`plan_tier` on the zone), and so marks
   * simplified-flow filters `locked`. The real service (and `serve --strict`) does neither.
   */
  private readonly withExtensions = new Set<string>();
  /** The account of each zone the request tracer was called for. */
  private readonly accounts = new Map<string, string>();

  constructor(protected readonly transport: Transport) {
    this.client = new V4Client(transport);
  }

  /** Requests made so far (live counters of the transport). */
  get stats(): ProviderStats {
    return this.transport.stats;
  }

  /**
   * A zone that does not exist, for a run that would create it: providers that create zones return
   * it as it will be (created at its first write); providers that cannot create zones throw.
   */
  protected abstract missingZone(name: string, create: { plan: PlanTier; id?: string; waf?: 'previous' | 'new' }): Promise<LiveZoneInfo>;

  async resolveZone(zone: string, options: { create?: { plan: PlanTier; id?: string; waf?: 'previous' | 'new' } } = {}): Promise<{ zone: LiveZoneInfo; missing: boolean }> {
    const found = await this.findZone(zone);
    if (found !== undefined) return { zone: this.remember(found), missing: false };
    if (options.create === undefined || ZoneIdPattern.test(zone)) throw this.notFound(zone);
    return { zone: this.remember(await this.missingZone(zone, options.create)), missing: true };
  }

  /** The error for a zone the service does not show; the HTTP provider adds that a token may not see it. */
  protected notFound(zone: string): ProviderError {
    return new ProviderError(`zone ${JSON.stringify(zone)} not found at ${this.description}; check the name (or id) and the provider (--remote, --state-dir)`, { code: 'ERR_API' });
  }

  private remember(zone: LiveZoneInfo): LiveZoneInfo {
    this.known.set(zone.id, zone);
    this.listed?.set(zone.name.toLowerCase(), zone);
    return zone;
  }

  /**
   * One zones list for a run of many manifests, instead of one lookup each, when its pages are
   * no more than the lookups it replaces (an account of 10,000 zones is not listed for 3 manifests).
   */
  async preloadZones(zones: readonly string[], expected = 0): Promise<void> {
    const names = Math.max(expected, new Set(zones.filter((z) => !ZoneIdPattern.test(z)).map((z) => z.toLowerCase())).size);
    if (names < 2 || this.listed !== undefined) return;
    const perPage = V4Limits.zonesPerPage;
    const first = await this.client.firstPage<ZoneItem>(V4Paths.zones(), {}, perPage);
    // Page 1 replaced one lookup; list the rest only if they cost no more than the other lookups.
    if (first.pages === undefined || first.pages - 1 > names - 1) {
      this.preloadFrom(first.items, false);
      return;
    }
    this.preloadFrom(await this.client.allPages(first, V4Paths.zones(), {}, perPage), true);
  }

  /** Remembers listed zones; `complete` when the list was the whole account's. */
  private preloadFrom(items: readonly ZoneItem[], complete: boolean): void {
    const byName = new Map(items.map((z) => [z.name.toLowerCase(), this.toZoneInfo(z)] as const));
    if (complete) this.listed = byName;
    else for (const [name, info] of byName) this.partial.set(name, info);
  }
  /** The zone by id (32 hex) or by name; undefined when the service has no such zone. */
  protected async findZone(zone: string): Promise<LiveZoneInfo | undefined> {
    const name = zone.toLowerCase();
    if (this.listed !== undefined && !ZoneIdPattern.test(zone)) return this.listed.get(name);
    const seen = this.partial.get(name);
    if (seen !== undefined) return seen;
    if (ZoneIdPattern.test(zone)) {
      try {
        return this.toZoneInfo(await this.client.result<ZoneItem>('GET', V4Paths.zone(zone)));
      } catch (err) {
        // 404, or 403 "outside the credential's zones" (10000): to this credential, there is no such zone.
        if (err instanceof ServiceError && (err.status === 404 || (err.status === 403 && err.errors.some((e) => e.code === OutOfScopeCode)))) return undefined;
        throw err;
      }
    }
    const items = await this.client.result<ZoneItem[]>('GET', V4Paths.zones(), { query: { name: zone } });
    const match = (Array.isArray(items) ? items : []).find((z) => z.name.toLowerCase() === zone.toLowerCase());
    return match === undefined ? undefined : this.toZoneInfo(match);
  }

  async readZone(zoneId: string, sections?: readonly LiveSection[]): Promise<LiveZone> {
    const live = await readZone(this.client, await this.zoneInfo(zoneId), sections);
    return { ...live, filterLocks: this.reportsFilterLocks(zoneId) ? 'reported' : 'unknown' };
  }

  /** Whether the service marks simplified-flow filters `locked` for this zone (see `withExtensions`). */
  protected reportsFilterLocks(zoneId: string): boolean {
    return this.withExtensions.has(zoneId);
  }

  /** A zone list item as `LiveZoneInfo`; the plan tier from `plan.legacy_id` (the engine's `plan_tier` agrees). */
  private toZoneInfo(item: ZoneItem): LiveZoneInfo {
    if (item.plan_tier !== undefined) this.withExtensions.add(item.id);
    const tier = item.plan?.legacy_id ?? item.plan_tier;
    const info: LiveZoneInfo = { id: item.id, name: item.name };
    if (Tiers.includes(tier ?? '')) info.plan = tier as PlanTier;
    if (typeof item.account?.id === 'string') info.account = { id: item.account.id, name: item.account.name };
    return info;
  }

  /** The zone's identity for `readZone` (one GET). */
  protected async zoneInfo(zoneId: string): Promise<LiveZoneInfo> {
    const found = this.known.get(zoneId) ?? (await this.findZone(zoneId));
    if (found === undefined) throw this.notFound(zoneId);
    return found;
  }

  createFilters(zoneId: string, filters: FilterBody[]): Promise<LiveFilter[]> {
    return firewall.createFilters(this.client, zoneId, filters);
  }
  updateFilters(zoneId: string, filters: (FilterBody & { id: string })[]): Promise<LiveFilter[]> {
    return firewall.updateFilters(this.client, zoneId, filters);
  }
  deleteFilters(zoneId: string, ids: string[]): Promise<void> {
    return firewall.deleteFilters(this.client, zoneId, ids);
  }
  createFirewallRules(zoneId: string, rules: FirewallRuleBody[]): Promise<LiveFirewallRule[]> {
    return firewall.createFirewallRules(this.client, zoneId, rules);
  }
  updateFirewallRules(zoneId: string, rules: (FirewallRuleBody & { id: string })[]): Promise<LiveFirewallRule[]> {
    return firewall.updateFirewallRules(this.client, zoneId, rules);
  }
  deleteFirewallRules(zoneId: string, ids: string[], options: { deleteFilterIfUnused?: boolean } = {}): Promise<void> {
    return firewall.deleteFirewallRules(this.client, zoneId, ids, options.deleteFilterIfUnused === true);
  }

  putPhase<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, body: PhaseBody, options: { step?: PhaseStep } = {}): Promise<R> {
    return phases.putPhase<R>(this.client, zoneId, phase, body, options);
  }
  createPhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, body: PhaseRuleBody, position?: RulePosition): Promise<R> {
    return phases.createPhaseRule<R>(this.client, zoneId, phase, rulesetId, body, position);
  }
  updatePhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, _phase: ServedPhase, rulesetId: string, ruleId: string, change: { body?: PhaseRuleBody; position?: RulePosition }): Promise<R> {
    return phases.updatePhaseRule<R>(this.client, zoneId, rulesetId, ruleId, change);
  }
  deletePhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, ruleId: string): Promise<R> {
    return phases.deletePhaseRule<R>(this.client, zoneId, phase, rulesetId, ruleId);
  }

  createPageRule(zoneId: string, body: PageRuleBody): Promise<LivePageRule> {
    return pageRules.createPageRule(this.client, zoneId, body);
  }
  updatePageRule(zoneId: string, ruleId: string, body: PageRuleBody): Promise<LivePageRule> {
    return pageRules.updatePageRule(this.client, zoneId, ruleId, body);
  }
  deletePageRule(zoneId: string, ruleId: string): Promise<void> {
    return pageRules.deletePageRule(this.client, zoneId, ruleId);
  }

  patchWafPackage(zoneId: string, packageId: string, body: { sensitivity?: string; action_mode?: string }): Promise<void> {
    return previousWaf.patchWafPackage(this.client, zoneId, packageId, body);
  }
  patchWafGroup(zoneId: string, packageId: string, groupId: string, mode: 'on' | 'off'): Promise<void> {
    return previousWaf.patchWafGroup(this.client, zoneId, packageId, groupId, mode);
  }
  patchWafRule(zoneId: string, packageId: string, ruleId: string, mode: string): Promise<void> {
    return previousWaf.patchWafRule(this.client, zoneId, packageId, ruleId, mode);
  }
  deleteWafOverride(zoneId: string, overrideId: string): Promise<void> {
    return previousWaf.deleteWafOverride(this.client, zoneId, overrideId);
  }

  checkMigration(zoneId: string): Promise<MigrationCheck> {
    return migration.checkMigration(this.client, zoneId);
  }

  migrationConfig(zoneId: string): Promise<EntrypointBody> {
    return migration.migrationConfig(this.client, zoneId);
  }

  async migrationStatus(zoneId: string): Promise<LiveMigrationStatus> {
    const status = await migration.readMigrationStatus(this.client, zoneId);
    if (status === null) throw new ProviderError(`${this.description} has no WAF migration status for zone ${zoneId}`, { code: 'ERR_API' });
    return status;
  }

  resolveAccount(account: string): Promise<{ id: string; name: string }> {
    return lists.resolveAccount(this.client, account);
  }

  listLists(accountId: string): Promise<ListJson[]> {
    return lists.readLists(this.client, accountId);
  }

  listItems(accountId: string, listId: string, options?: { search?: string; perPage?: number }): Promise<ListItemJson[]> {
    return lists.readListItems(this.client, accountId, listId, options);
  }

  createList(accountId: string, body: ListCreateBody): Promise<ListJson> {
    return lists.createList(this.client, accountId, body);
  }

  updateList(accountId: string, listId: string, body: ListUpdateBody): Promise<ListJson> {
    return lists.updateList(this.client, accountId, listId, body);
  }

  deleteList(accountId: string, listId: string): Promise<void> {
    return lists.deleteList(this.client, accountId, listId);
  }

  addListItems(accountId: string, listId: string, items: readonly ListItemBody[]): Promise<string> {
    return lists.addListItems(this.client, accountId, listId, items);
  }

  replaceListItems(accountId: string, listId: string, items: readonly ListItemBody[]): Promise<string> {
    return lists.replaceListItems(this.client, accountId, listId, items);
  }

  deleteListItems(accountId: string, listId: string, itemIds: readonly string[]): Promise<string> {
    return lists.deleteListItems(this.client, accountId, listId, itemIds);
  }

  getListOperation(accountId: string, operationId: string): Promise<BulkOperationJson> {
    return lists.getListOperation(this.client, accountId, operationId);
  }

  waitForListOperation(accountId: string, operationId: string, options?: ListOperationWaitOptions): Promise<BulkOperationJson & { status: 'completed' }> {
    return lists.waitForListOperation(this.client, accountId, operationId, options);
  }

  /** The zonewall engine's trace of one request (a service without the operation answers 404). */
  trace(zoneId: string, request: TraceRequest): Promise<TraceResult> {
    return this.client.result<TraceResult>('POST', V4Paths.trace(zoneId), { body: request });
  }

  /** The zonewall engine's burst trace (a service without the operation answers 404). */
  traceBurst(zoneId: string, body: BurstTraceRequest<TraceRequest>): Promise<BurstTrace> {
    return this.client.result<BurstTrace>('POST', V4Paths.traceBurst(zoneId), { body });
  }

  /** The request tracer of the zone's account (read from the zone once). */
  async requestTrace(zoneId: string, body: TracerRequestBody): Promise<TracerResult> {
    return this.client.result<TracerResult>('POST', V4Paths.requestTrace(await this.accountOf(zoneId)), { body });
  }

  /** The zonewall engine's batch of the request tracer (a service without the route answers 404). */
  async requestTraceBatch(zoneId: string, body: TracerBatchBody): Promise<TracerBatchResult> {
    return this.client.result<TracerBatchResult>('POST', V4Paths.requestTraceBatch(await this.accountOf(zoneId)), { body });
  }

  /** The zone's account (read from the zone once). */
  private async accountOf(zoneId: string): Promise<string> {
    let account = this.accounts.get(zoneId);
    if (account === undefined) {
      account = (await this.client.result<{ account: { id: string } }>('GET', V4Paths.zone(zoneId))).account.id;
      this.accounts.set(zoneId, account);
    }
    return account;
  }

  /** Seconds the service's request budget needs for `requests` more calls (0 without a rate limit). */
  estimateSeconds(requests: number): number {
    void requests;
    return 0;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
