/**
 * A manifest as the engine would hold it once applied to a new zone of its plan: firewall rules
 * with their filters in evaluation order (effective priority ascending, no priority last, ties by
 * action precedence, then key: `compareFirewallRules`, the engine's order too), the WAF custom
 * rules in key order, the `http_request_firewall_managed` entry point, and the previous WAF's settings. These are the
 * engine's own shapes, so offline tests run the engine's trace evaluators on them unchanged.
 *
 * What a manifest does not say is taken from a new zone: no `plan:` is `enterprise` (the tier the
 * planner creates zones with); the WAF generation is the one the manifest means (`wafGenerationOf`):
 * `waf_migration` when it says (`none`: `previous_only`, `validation`: `both`, `pending`: `new_only`),
 * else `previous_only` with a `previous_waf` section and `new_only` (the new WAF, as every real zone
 * today, and as the embedded engine creates a missing zone for it) without one; no `managed_rules`
 * section is no entry point; no `previous_waf` section is the previous WAF at its defaults (on, for
 * every tier but free) where it runs. `--against-zone` evaluates the live zone instead, so a zone that differs
 * from a new one shows up there.
 */
import { rateLimitRuleset } from './ratelimit-model.js';
import {
  PreviousWafPackages, RuleIndex, TracePhases,
  type Entrypoint, type PreviousWafSettings, type RuleWithFilter, type StoredRule, type StoredRuleset, type WafState,
} from '../engine/index.js';
import { CustomPhase, type PlanTier } from '../api/index.js';
import type { ExecutionContext, Lists } from '../expr/index.js';
import { firewallEvaluationOrder, managedEntrypointRules, wafGenerationOf, type DesiredPreviousWaf, type DesiredZone } from '../manifest/index.js';

/**
 * Picks the firewall rules to give the evaluator for a request, in evaluation order: a `RuleIndex`
 * gives those that match it; giving all rules gives the same answer, slower.
 */
export interface RuleCandidates<R = RuleWithFilter> {
  candidates(request: ExecutionContext): R[];
}

/** Which WAF versions run (the seed's states; the engine's own type). */
export type ModelWafState = WafState;

/** A zone as the engine's trace sees it. */
export interface ZoneModel {
  /** The manifest's zone (name or id). */
  zone: string;
  plan: PlanTier;
  wafState: ModelWafState;
  /** Firewall rules in evaluation order. */
  rules: RuleWithFilter[];
  /** `rules`, compiled and indexed: a request is evaluated by the rules that match it only. */
  index: RuleCandidates;
  entrypoint: Entrypoint | undefined;
  /** The `http_request_firewall_custom` entry point; undefined without a `custom_rules` section. */
  customRules: StoredRuleset | undefined;
  /**
   * The enabled custom rules, compiled and indexed as `index` is (undefined without a `custom_rules`
   * section): the custom rules evaluator gets the ones that match the request only.
   */
  customIndex?: RuleCandidates<StoredRule> | undefined;
  previousWaf: PreviousWafSettings;
  /** The `http_ratelimit` entry point (burst cases); undefined without a `rate_limiting_rules` section. */
  rateLimitRules?: StoredRuleset | undefined;
  /** What `$name` resolves to (the account manifest's lists); undefined: the manifest uses none. */
  lists?: Lists;
}

const states: Record<string, ModelWafState> = { none: 'previous_only', validation: 'both', pending: 'new_only' };

/** Builds the engine-side model of a manifest; each expression is parsed and compiled once. */
export function buildZoneModel(desired: DesiredZone, lists?: Lists): ZoneModel {
  const rules = firewallRules(desired);
  const custom = customRules(desired);
  const enabled = custom?.rules.filter((r) => r.enabled) ?? [];
  const model: ZoneModel = {
    zone: desired.zone,
    plan: desired.plan ?? 'enterprise',
    wafState: desired.wafMigration !== undefined ? states[desired.wafMigration]! : wafGenerationOf(desired) === 'new' ? 'new_only' : 'previous_only',
    rules,
    index: new RuleIndex(rules, rules.map((r) => r.filter!.expression), TracePhases.firewall, lists),
    entrypoint: entrypoint(desired),
    customRules: custom,
    customIndex: custom === undefined ? undefined : new RuleIndex(enabled, enabled.map((r) => r.expression), CustomPhase, lists),
    previousWaf: previousWaf(desired.previousWaf),
    rateLimitRules: rateLimitRuleset(desired.rateLimitingRules),
  };
  if (lists !== undefined) model.lists = lists;
  return model;
}

function firewallRules(desired: DesiredZone): RuleWithFilter[] {
  const filters = new Map(desired.filters.map((f) => [f.ref, f]));
  const rules = desired.firewallRules.map((r): RuleWithFilter => {
    const f = filters.get(r.filterRef)!;
    return {
      rule: {
        id: r.ref, filterId: f.ref, action: r.action, priority: r.priority, paused: r.paused,
        description: r.description, ref: r.ref, products: r.products as RuleWithFilter['rule']['products'],
        createdOn: '', modifiedOn: '',
      },
      filter: {
        // `usesMatches` and `locked` drive the engine's write checks; the trace does not read them.
        id: f.ref, expression: f.expression, canonical: f.expression, usesMatches: false,
        paused: f.paused, description: f.description, ref: f.ref, locked: f.inline,
      },
    };
  });
  return firewallEvaluationOrder(rules, (r) => r.rule);
}

function entrypoint(desired: DesiredZone): Entrypoint | undefined {
  const entries = managedEntrypointRules(desired);
  if (entries === undefined) return undefined;
  return {
    id: 'manifest', name: 'zone', description: '', version: '1', last_updated: '',
    rules: entries.map((entry) => {
      if (entry.kind === 'exception') {
        // Exceptions are the entry point's skip rules, where the manifest puts them: the trace honours them as the engine does.
        const e = entry.exception;
        return {
          id: e.ref, ref: e.ref, version: '1', last_updated: '',
          action: 'skip' as const, expression: e.expression, description: e.description, enabled: e.enabled,
          action_parameters: structuredClone(e.skip),
          ...(e.logging !== undefined ? { logging: e.logging } : {}),
        };
      }
      const m = entry.ruleset;
      return {
        // The rule's id is its ref offline, so traces name it the way a live zone's refs do.
        id: m.ref, ref: m.ref, version: '1', last_updated: '',
        action: 'execute' as const, expression: m.expression, description: m.description, enabled: m.enabled,
        action_parameters: { id: m.rulesetId, overrides: m.overrides },
      };
    }),
  };
}

function customRules(desired: DesiredZone): StoredRuleset | undefined {
  if (desired.customRules === undefined) return undefined;
  return {
    id: 'manifest', name: 'default', description: '', version: '1', last_updated: '',
    rules: desired.customRules.map((r) => ({
      // The rule's id is its ref offline, so traces name it the way a live zone's refs do.
      id: r.ref, ref: r.ref, version: '1', last_updated: '', action: r.action, expression: r.expression,
      description: r.description, enabled: r.enabled,
      ...(r.actionParameters !== undefined ? { action_parameters: r.actionParameters } : {}),
      ...(r.logging !== undefined ? { logging: r.logging } : {}),
    })),
  };
}

/** The previous WAF's settings: defaults, with what the manifest sets (groups and rules found in the catalog by id). */
function previousWaf(pw: DesiredPreviousWaf | undefined): PreviousWafSettings {
  const s: PreviousWafSettings = { enabled: true, packages: new Map(), groupModes: new Map(), ruleModes: new Map(), overrides: [] };
  if (pw === undefined) return s;
  for (const [id, p] of Object.entries(pw.packages)) s.packages.set(id, { sensitivity: p.sensitivity ?? null, action_mode: p.action_mode ?? null });
  for (const [groupId, mode] of Object.entries(pw.groups)) {
    const pkg = PreviousWafPackages.find((k) => k.groups.some((g) => g.id === groupId));
    if (pkg !== undefined) s.groupModes.set(`${pkg.id}/${groupId}`, mode);
  }
  for (const [ruleId, mode] of Object.entries(pw.rules)) {
    const pkg = PreviousWafPackages.find((k) => k.groups.some((g) => g.rules.some((r) => r.id === ruleId)));
    if (pkg !== undefined) s.ruleModes.set(`${pkg.id}/${ruleId}`, mode);
  }
  return s;
}
