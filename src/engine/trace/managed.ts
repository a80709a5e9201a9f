/**
 * The new WAF (the `http_request_firewall_managed` entry point) in a trace. Entry point rules run in
 * order; disabled ones do not. A matching `skip` rule skips the rest of the entry point
 * (`ruleset: "current"`), later executions of some managed rulesets (`rulesets`) or some of their
 * rules (`rules`). A matching `execute` rule runs its managed ruleset with its overrides: rules
 * without an expression in the catalog never match; `log` matches are recorded and evaluation goes
 * on; `block`, `challenge`, `js_challenge` and `managed_challenge` end it. In the OWASP Core Ruleset,
 * scoring rules add their score and the threshold rule (949110) applies the ruleset's action when
 * the total reaches the threshold. Paranoia levels are whatever category overrides leave enabled.
 */
import { TerminatingCustomActions } from '../../api/index.js';
import type { ExecutionContext } from '../../expr/index.js';
import { OwaspThresholdRuleId, findManagedRuleset, type ManagedRule, type ManagedRuleset } from '../catalog/index.js';
import type { Entrypoint, ExecuteParameters } from '../rulesets/types.js';
import { TracePhases, matches } from './matchers.js';
import { effectiveRule } from './overrides.js';
import type { ManagedMatch, ManagedSkipParameters, ManagedTrace } from '../../api/index.js';
export type { ManagedMatch, OwaspScore, ManagedTrace } from '../../api/index.js';




/** Actions that end the request (the same four as in the custom phase: the wire contract's list). */
const Terminating = new Set<string>(TerminatingCustomActions);

/**
 * What matched skip rules skip, and by whom: `current` (the skip entry that set it), ruleset ids
 * and `ruleset/rule` keys mapped to the index in `ManagedTrace.skipped` of the skip that named them
 * (the first one), so the trace can say which exception skipped which managed rules.
 */
interface SkipState { current: boolean; currentBy: number; rulesets: Map<string, number>; rules: Map<string, number> }

/** Evaluates the entry point against the request. */
export function traceEntrypoint(entry: Entrypoint | undefined, request: ExecutionContext): ManagedTrace {
  const out: ManagedTrace = { enabled: false, matched: [], action: null, rule: null, skipped: [] };
  const skip: SkipState = { current: false, currentBy: -1, rulesets: new Map(), rules: new Map() };
  for (const rule of entry?.rules ?? []) {
    if (!rule.enabled) continue;
    if (rule.action === 'execute') out.enabled = true;
    if (out.rule !== null) continue;
    if (skip.current) {
      if (rule.action === 'execute') shadowRun(rule.id, rule.expression, rule.action_parameters as ExecuteParameters, request, skip.currentBy, out);
      continue;
    }
    if (!matches(rule.expression, TracePhases.managed, request)) continue;
    if (rule.action === 'skip') {
      applySkip(rule.action_parameters as ManagedSkipParameters, skip, out.skipped.length);
      out.skipped.push({ entrypoint_rule: rule.id, skip: rule.action_parameters as ManagedSkipParameters });
      continue;
    }
    const params = rule.action_parameters as ExecuteParameters;
    const by = skip.rulesets.get(params.id);
    if (by !== undefined) {
      shadowRun(rule.id, 'true', params, request, by, out);
      continue;
    }
    const ruleset = findManagedRuleset(params.id);
    if (ruleset !== undefined) runRuleset(ruleset, params, rule.id, request, skip, out);
  }
  return out;
}

function applySkip(p: ManagedSkipParameters, skip: SkipState, index: number): void {
  if (p.ruleset === 'current' && !skip.current) {
    skip.current = true;
    skip.currentBy = index;
  }
  for (const id of p.rulesets ?? []) if (!skip.rulesets.has(id)) skip.rulesets.set(id, index);
  for (const [rs, ids] of Object.entries(p.rules ?? {})) for (const id of ids) if (!skip.rules.has(`${rs}/${id}`)) skip.rules.set(`${rs}/${id}`, index);
}

/** Records a managed rule that matches the request but was skipped, under the skip that skipped it. */
function recordSkipped(out: ManagedTrace, by: number, m: ManagedMatch): void {
  const entry = out.skipped[by];
  if (entry === undefined) return;
  (entry.rules ??= []).push(m);
}

/**
 * The rules of a skipped execution that match the request (what the exception let through), run
 * without effect: `expression` is the execute rule's own (`true` when it already matched).
 */
function shadowRun(entryRuleId: string, expression: string, params: ExecuteParameters, request: ExecutionContext, by: number, out: ManagedTrace): void {
  const ruleset = findManagedRuleset(params.id);
  if (ruleset === undefined || !matches(expression, TracePhases.managed, request)) return;
  for (const rule of ruleset.rules) {
    if (rule.id === OwaspThresholdRuleId) continue;
    const eff = effectiveRule(ruleset, rule, params.overrides);
    if (!eff.enabled || rule.expression === undefined || !matches(rule.expression, TracePhases.managed, request)) continue;
    recordSkipped(out, by, match(ruleset, rule, eff.action, entryRuleId));
  }
}

/** Whether a skip rule skipped `rule` (no key is built when nothing was skipped: the usual case, per rule per request). */
function ruleSkipped(skip: SkipState, ruleset: ManagedRuleset, rule: ManagedRule): boolean {
  return skip.rules.size > 0 && skip.rules.has(`${ruleset.id}/${rule.id}`);
}

/** The skip that skipped `rule`, when one did. */
function skippedBy(skip: SkipState, ruleset: ManagedRuleset, rule: ManagedRule): number | undefined {
  return skip.rules.size > 0 ? skip.rules.get(`${ruleset.id}/${rule.id}`) : undefined;
}

function runRuleset(ruleset: ManagedRuleset, params: ExecuteParameters, entryRuleId: string, request: ExecutionContext, skip: SkipState, out: ManagedTrace): void {
  let score = 0;
  const levels = new Set<number>();
  for (const rule of ruleset.rules) {
    if (rule.id === OwaspThresholdRuleId) continue;
    const by = skippedBy(skip, ruleset, rule);
    const eff = effectiveRule(ruleset, rule, params.overrides);
    if (by !== undefined) {
      if (eff.enabled && rule.expression !== undefined && matches(rule.expression, TracePhases.managed, request)) recordSkipped(out, by, match(ruleset, rule, eff.action, entryRuleId));
      continue;
    }
    if (!eff.enabled) continue;
    if (rule.paranoia_level !== undefined) levels.add(rule.paranoia_level);
    if (rule.expression === undefined || !matches(rule.expression, TracePhases.managed, request)) continue;
    const m = match(ruleset, rule, eff.action, entryRuleId);
    if (eff.action === 'score') {
      score += rule.score ?? 0;
      m.score = rule.score ?? 0;
    }
    out.matched.push(m);
    if (Terminating.has(eff.action)) return terminate(out, m);
  }
  if (ruleset.anomaly) scoreOwasp(ruleset, params, entryRuleId, score, [...levels].sort(), skip, out);
}

function scoreOwasp(ruleset: ManagedRuleset, params: ExecuteParameters, entryRuleId: string, score: number, levels: number[], skip: SkipState, out: ManagedTrace): void {
  const rule = ruleset.rules.find((r) => r.id === OwaspThresholdRuleId)!;
  const eff = effectiveRule(ruleset, rule, params.overrides);
  const threshold = eff.score_threshold ?? rule.score_threshold ?? 40;
  const active = eff.enabled && !ruleSkipped(skip, ruleset, rule);
  const exceeded = active && score > 0 && score >= threshold;
  out.owasp = { score, threshold, action: eff.action, exceeded, paranoia_levels: levels };
  if (!exceeded) return;
  const m = match(ruleset, rule, eff.action, entryRuleId);
  m.score = score;
  out.matched.push(m);
  if (Terminating.has(eff.action)) terminate(out, m);
}

function match(ruleset: ManagedRuleset, rule: ManagedRule, action: string, entryRuleId: string): ManagedMatch {
  return {
    entrypoint_rule: entryRuleId,
    ruleset_id: ruleset.id,
    ruleset: ruleset.name,
    rule_id: rule.id,
    description: rule.description,
    action,
    categories: [...rule.categories],
  };
}

function terminate(out: ManagedTrace, m: ManagedMatch): void {
  out.action = m.action;
  out.rule = m;
}
