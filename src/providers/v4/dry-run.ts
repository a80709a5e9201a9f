/**
 * A remote API's pre-flight (`Provider.validator` of the HTTP provider, `zonewall plan --preflight`):
 * the Rulesets writes are sent with `dry_run=true`, which the real API validates as the write and
 * persists nothing of (`result: null`); the other writes are taken as written without a request,
 * as the real API has no dry run for them. A dry run's answer carries no ruleset, so each is
 * answered with the ruleset the body describes (placeholder ids for new rules, so apply's
 * bookkeeping by ref goes on); a single-rule call naming a rule only this pre-flight created is
 * not sent (the service has no such rule), and a position naming one is left out. Each write is
 * validated against the live zone, not against the earlier writes: the real API keeps nothing
 * between dry runs. It shares the provider's transport (and its rate budget); closing it closes nothing.
 */
import { DryRunParameter, type ServedPhase } from '../../api/index.js';
import type {
  FilterBody, FirewallRuleBody, LiveFilter, LiveFirewallRule, LivePageRule, LiveRuleset, LiveZoneInfo, PageRuleBody, PhaseBody, PhaseRuleBody, PhaseStep, PlanTier, RulePosition,
} from '../../plan/index.js';
import { V4Paths } from './constants.js';
import { ProviderError } from './errors.js';
import type { Transport } from './transport.js';
import { V4Provider } from './v4-provider.js';

/** Ids this pre-flight makes up for objects it did not create. */
const Placeholder = 'preflight-';
const placeholder = (ref: string | undefined, n: number): string => `${Placeholder}${ref ?? String(n)}`;
const isPlaceholder = (id: string): boolean => id.startsWith(Placeholder);
const dry = { [DryRunParameter]: 'true' } as const;

/** The HTTP provider's pre-flight: dry runs of the Rulesets writes. */
export class RemoteDryRuns extends V4Provider {
  readonly kind = 'http' as const;
  readonly description = 'dry runs of the Rulesets writes (pre-flight)';
  readonly target = 'dry runs';
  #made = 0;

  constructor(transport: Transport) {
    super(transport);
  }

  protected missingZone(name: string, _create: { plan: PlanTier }): Promise<LiveZoneInfo> {
    return Promise.reject(new ProviderError(`zone ${name} not found`));
  }

  override async putPhase<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, body: PhaseBody, options: { step?: PhaseStep } = {}): Promise<R> {
    const query = { ...(options.step === undefined ? {} : { waf_migration: options.step, phase_two: 1 }), ...dry };
    await this.client.call('PUT', V4Paths.entrypoint(zoneId, phase), { query, body });
    return this.#ruleset<R>(phase, (body.rules as { id?: string; ref?: string }[]).map((r) => ({ ...(r.ref !== undefined ? { ref: r.ref } : {}), id: r.id ?? placeholder(r.ref, ++this.#made) })));
  }

  override async createPhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, body: PhaseRuleBody, position?: RulePosition): Promise<R> {
    const named = position === undefined ? undefined : Object.values(position)[0];
    const kept = typeof named === 'string' && isPlaceholder(named) ? undefined : position;
    if (!isPlaceholder(rulesetId)) await this.client.call('POST', V4Paths.rulesetRules(zoneId, rulesetId), { query: dry, body: { ...body, ...(kept !== undefined ? { position: kept } : {}) } });
    const ref = (body as { ref?: string }).ref;
    return this.#ruleset<R>(phase, [{ ...(ref !== undefined ? { ref } : {}), id: placeholder(ref, ++this.#made) }]);
  }

  override async updatePhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, ruleId: string, change: { body?: PhaseRuleBody; position?: RulePosition }): Promise<R> {
    if (!isPlaceholder(rulesetId) && !isPlaceholder(ruleId)) {
      const { id: _id, ...rest } = (change.body ?? {}) as PhaseRuleBody & { id?: string };
      const named = change.position === undefined ? undefined : Object.values(change.position)[0];
      const position = typeof named === 'string' && isPlaceholder(named) ? undefined : change.position;
      await this.client.call('PATCH', V4Paths.rulesetRule(zoneId, rulesetId, ruleId), { query: dry, body: { ...(change.body !== undefined ? rest : {}), ...(position !== undefined ? { position } : {}) } });
    }
    return this.#ruleset<R>(phase, []);
  }

  override async deletePhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, ruleId: string): Promise<R> {
    if (!isPlaceholder(rulesetId) && !isPlaceholder(ruleId)) await this.client.call('DELETE', V4Paths.rulesetRule(zoneId, rulesetId, ruleId), { query: dry });
    return this.#ruleset<R>(phase, []);
  }

  // The real API has no dry run for these: taken as written, without a request.
  override createFilters(_zoneId: string, filters: FilterBody[]): Promise<LiveFilter[]> {
    return Promise.resolve(filters.map((f) => ({ ...f, id: placeholder(f.ref, ++this.#made), paused: f.paused ?? false })));
  }
  override updateFilters(_zoneId: string, filters: (FilterBody & { id: string })[]): Promise<LiveFilter[]> {
    return Promise.resolve(filters.map((f) => ({ ...f, paused: f.paused ?? false })));
  }
  override deleteFilters(): Promise<void> { return Promise.resolve(); }
  override createFirewallRules(): Promise<LiveFirewallRule[]> { return Promise.resolve([]); }
  override updateFirewallRules(): Promise<LiveFirewallRule[]> { return Promise.resolve([]); }
  override deleteFirewallRules(): Promise<void> { return Promise.resolve(); }
  override createPageRule(_zoneId: string, body: PageRuleBody): Promise<LivePageRule> {
    return Promise.resolve({ ...body, id: placeholder(undefined, ++this.#made) } as LivePageRule);
  }
  override updatePageRule(_zoneId: string, ruleId: string, body: PageRuleBody): Promise<LivePageRule> {
    return Promise.resolve({ ...body, id: ruleId } as LivePageRule);
  }
  override deletePageRule(): Promise<void> { return Promise.resolve(); }
  override patchWafPackage(): Promise<void> { return Promise.resolve(); }
  override patchWafGroup(): Promise<void> { return Promise.resolve(); }
  override patchWafRule(): Promise<void> { return Promise.resolve(); }
  override deleteWafOverride(): Promise<void> { return Promise.resolve(); }

  /** The transport is the provider's: left open. */
  override close(): Promise<void> {
    return Promise.resolve();
  }

  #ruleset<R extends LiveRuleset>(phase: ServedPhase, rules: { id: string; ref?: string }[]): R {
    return { id: `${Placeholder}${phase}`, name: 'default', kind: 'zone', phase, version: '0', rules } as unknown as R;
  }
}
