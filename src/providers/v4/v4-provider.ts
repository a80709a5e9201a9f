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
import type {
  BulkOperationJson, ListCreateBody, ListItemBody, ListItemJson, ListJson, ListUpdateBody, ServedPhase, TracerBatchBody, TracerBatchResult, TracerRequestBody, TracerResult,
} from '../../api/index.js';
import type { BurstTrace, BurstTraceRequest } from '../../api/index.js';
import type { ListOperationWaitOptions, MigrationCheck, Provider, ProviderStats, TraceRequest, TraceResult } from '../provider.js';
import { V4Client } from './client.js';
import { V4Paths } from './constants.js';
import { ProviderError } from './errors.js';
import * as migration from './migration.js';
import * as pageRules from './page-rules.js';
import * as previousWaf from './previous-waf.js';
import { readZone } from './read-zone.js';
import type { Transport } from './transport.js';
import * as phases from './rules-phase.js';
import * as firewall from './firewall.js';
import * as lists from './lists.js';
import { ZoneIdPattern, ZoneLookup } from './zones.js';

/** A `Provider` over any v4 `Transport`. */
export abstract class V4Provider implements Provider {
  abstract readonly kind: 'engine' | 'http';
  abstract readonly description: string;
  abstract readonly target: string;
  protected readonly client: V4Client;
  /** The zones looked up so far, their extension fields and accounts (`zones.ts`). */
  private readonly zones: ZoneLookup;

  constructor(protected readonly transport: Transport) {
    this.client = new V4Client(transport);
    this.zones = new ZoneLookup(this.client);
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
    if (found !== undefined) return { zone: this.zones.remember(found), missing: false };
    if (options.create === undefined || ZoneIdPattern.test(zone)) throw this.notFound(zone);
    return { zone: this.zones.remember(await this.missingZone(zone, options.create)), missing: true };
  }

  /** The error for a zone the service does not show; the HTTP provider adds that a token may not see it. */
  protected notFound(zone: string): ProviderError {
    return new ProviderError(`zone ${JSON.stringify(zone)} not found at ${this.description}; check the name (or id) and the provider (--remote, --state-dir)`, { code: 'ERR_API' });
  }

  /** See `ZoneLookup.preload`. */
  async preloadZones(zones: readonly string[], expected = 0): Promise<void> {
    return this.zones.preload(zones, expected);
  }

  /** The zone by id (32 hex) or by name; undefined when the service has no such zone. */
  protected findZone(zone: string): Promise<LiveZoneInfo | undefined> {
    return this.zones.find(zone);
  }

  async readZone(zoneId: string, sections?: readonly LiveSection[]): Promise<LiveZone> {
    const live = await readZone(this.client, await this.zoneInfo(zoneId), sections);
    return { ...live, filterLocks: this.reportsFilterLocks(zoneId) ? 'reported' : 'unknown' };
  }

  /** Whether the service marks simplified-flow filters `locked` for this zone (it sends zonewall's extension fields). */
  protected reportsFilterLocks(zoneId: string): boolean {
    return this.zones.hasExtensions(zoneId);
  }

  /** The zone's identity for `readZone` (one GET). */
  protected async zoneInfo(zoneId: string): Promise<LiveZoneInfo> {
    const found = this.zones.known(zoneId) ?? (await this.findZone(zoneId));
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
    const status = await migration.readLiveMigrationStatus(this.client, zoneId);
    if (status === null) throw new ProviderError(`${this.description} has no WAF migration status for zone ${zoneId}`, { code: 'ERR_API' });
    return status;
  }

  resolveAccount(account: string): Promise<{ id: string; name: string; tier?: PlanTier }> {
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
    return this.client.result<TracerResult>('POST', V4Paths.requestTrace(await this.zones.accountOf(zoneId)), { body });
  }

  /** The zonewall engine's batch of the request tracer (a service without the route answers 404). */
  async requestTraceBatch(zoneId: string, body: TracerBatchBody): Promise<TracerBatchResult> {
    return this.client.result<TracerBatchResult>('POST', V4Paths.requestTraceBatch(await this.zones.accountOf(zoneId)), { body });
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
