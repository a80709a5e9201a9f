/**
 * The previous WAF in a trace. The first URI-based override (lowest priority, not paused) whose URL
 * patterns match the request's host and path applies: its `groups` (`disable` turns a group off,
 * `default` keeps it on), its `rules` (a mode for the rule: deny rules take it as is, on/off rules
 * read `disable` as off and anything else as on) and its `rewrite_action` (an action replaced by
 * another). Then the CloudFlare package runs its rules in priority order: an `allow` rule that
 * matches ends the previous WAF with `allow`; deny rules act by mode (`default` = their default
 * mode, `simulate` = log only, `block`, `challenge`; `disable` = not run). Then the OWASP package
 * adds the scores of its matching rules (groups and rules on) and, at the sensitivity's threshold
 * (High 25, Medium 40, Low 60; `off` = not run), applies its action mode (simulate = log) as rule
 * 981176.
 */
import type { ExecutionContext } from '../../expr/index.js';
import type { LegacyMatch, PreviousTrace } from '../../api/index.js';
import {
  LegacyOwaspThresholdRuleId,
  LegacyOwaspThresholds,
  PreviousWafPackages,
  legacyRuleExpression,
  type LegacyGroup,
  type LegacyPackage,
  type LegacyRule,
} from '../catalog/index.js';
import { actionModeOf, groupModeOf, ruleModeOf, sensitivityOf, type PreviousWafSettings, type WafOverride } from '../previous-waf/model.js';
import { TracePhases, matches } from './matchers.js';
import { urlMatches } from './url-pattern.js';

export type { LegacyMatch, PreviousTrace } from '../../api/index.js';



const Terminating = new Set(['block', 'challenge', 'allow']);
const modeActions: Record<string, string> = { simulate: 'log', block: 'block', challenge: 'challenge' };

/** Evaluates the previous WAF against the request (`host` and `path` for URI-based overrides). */
export function tracePreviousWaf(s: PreviousWafSettings, request: ExecutionContext, host: string, path: string): PreviousTrace {
  const out: PreviousTrace = { enabled: true, matched: [], action: null, rule: null };
  const override = s.overrides.filter((o) => !o.paused).sort((a, b) => a.priority - b.priority).find((o) => o.urls.some((u) => urlMatches(u, host, path)));
  if (override !== undefined) out.override = override.id;
  for (const pkg of PreviousWafPackages) {
    if (pkg.detection_mode === 'anomaly') runAnomaly(pkg, s, override, request, out);
    else runTraditional(pkg, s, override, request, out);
    if (out.rule !== null) break;
  }
  return out;
}

function groupOn(s: PreviousWafSettings, pkg: LegacyPackage, group: LegacyGroup, o: WafOverride | undefined): boolean {
  const forced = o?.groups[group.id];
  return forced !== undefined ? forced !== 'disable' : groupModeOf(s, pkg, group) === 'on';
}

function modeOf(s: PreviousWafSettings, pkg: LegacyPackage, rule: LegacyRule, o: WafOverride | undefined): string {
  const forced = o?.rules[rule.id];
  if (forced === undefined) return ruleModeOf(s, pkg, rule);
  if (rule.kind === 'deny') return forced;
  return forced === 'disable' ? 'off' : 'on';
}

function runTraditional(pkg: LegacyPackage, s: PreviousWafSettings, o: WafOverride | undefined, request: ExecutionContext, out: PreviousTrace): void {
  const rules = pkg.groups.flatMap((group) => group.rules.map((rule) => ({ group, rule }))).sort((a, b) => Number(a.rule.priority) - Number(b.rule.priority));
  for (const { group, rule } of rules) {
    if (!groupOn(s, pkg, group, o)) continue;
    const mode = modeOf(s, pkg, rule, o);
    let action: string | undefined;
    if (rule.kind === 'allow') action = mode === 'on' ? 'allow' : undefined;
    else {
      const effective = mode === 'default' ? rule.default_mode ?? 'block' : mode;
      action = rewrite(modeActions[effective] === undefined ? undefined : effective, o);
    }
    const expression = legacyRuleExpression(pkg, rule);
    if (action === undefined || expression === undefined || !matches(expression, TracePhases.managed, request)) continue;
    const m: LegacyMatch = { package_id: pkg.id, package: pkg.name, group_id: group.id, group: group.name, rule_id: rule.id, description: rule.description, mode, action };
    if (record(out, m)) return;
  }
}

/** Applies an override's `rewrite_action` to a deny mode; returns the resulting action (or undefined = not run). */
function rewrite(mode: string | undefined, o: WafOverride | undefined): string | undefined {
  if (mode === undefined) return undefined;
  const rewritten = o?.rewrite_action[mode] ?? mode;
  return modeActions[rewritten];
}

function runAnomaly(pkg: LegacyPackage, s: PreviousWafSettings, o: WafOverride | undefined, request: ExecutionContext, out: PreviousTrace): void {
  const sensitivity = sensitivityOf(s, pkg);
  if (sensitivity === 'off') return;
  let score = 0;
  for (const group of pkg.groups) {
    if (!groupOn(s, pkg, group, o)) continue;
    for (const rule of group.rules) {
      const expression = legacyRuleExpression(pkg, rule);
      if (modeOf(s, pkg, rule, o) !== 'on' || expression === undefined || !matches(expression, TracePhases.managed, request)) continue;
      score += rule.score ?? 0;
      out.matched.push({ package_id: pkg.id, package: pkg.name, group_id: group.id, group: group.name, rule_id: rule.id, description: rule.description, mode: 'on', action: 'score', score: rule.score ?? 0 });
    }
  }
  const threshold = LegacyOwaspThresholds[sensitivity];
  const actionMode = actionModeOf(s, pkg);
  const exceeded = score > 0 && score >= threshold;
  out.owasp = { score, threshold, sensitivity, action_mode: actionMode, exceeded };
  const action = exceeded ? rewrite(actionMode, o) : undefined;
  if (action === undefined) return;
  const m: LegacyMatch = { package_id: pkg.id, package: pkg.name, group_id: null, group: null, rule_id: LegacyOwaspThresholdRuleId, description: `Inbound Anomaly Score Exceeded (Total Score: ${score})`, mode: actionMode, action, score };
  record(out, m);
}

/** Records a match; a terminating one ends the previous WAF with its action. Returns whether it did. */
function record(out: PreviousTrace, m: LegacyMatch): boolean {
  out.matched.push(m);
  if (!Terminating.has(m.action)) return false;
  out.action = m.action;
  out.rule = m;
  return true;
}
