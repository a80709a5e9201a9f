/**
 * The linter's own checks on a valid manifest (rules.ts: ZW102–ZW106): custom rules an earlier
 * terminating rule covers (by structure, or by a wider IP range), duplicate or contradictory
 * conditions in every custom rule and filter expression, and skip rules that skip nothing. Each finding points at the expression it
 * concerns. The retired-field warnings (ZW101) are made while the manifest loads.
 */
import { parse, type Expression } from '../../expr/index.js';
import type { DesiredCustomRule } from '../custom-rules/desired.js';
import type { DesiredZone } from '../desired.js';
import type { ManifestIssue } from '../errors.js';
import { aliasNote, type SourceLocation } from '../source-location.js';
import { conditionFindings, covers } from './cover.js';
import { LintRules, type LintRule } from './rules.js';

/** A finding with its check. */
export interface LintFinding extends ManifestIssue { rule: LintRule }

/** Custom rule actions that end the phase's evaluation (the schema's `action` description). */
const Terminating: ReadonlySet<string> = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);

function parsed(source: string): Expression | undefined {
  try {
    return parse(source);
  } catch {
    return undefined;
  }
}

function at(location: SourceLocation, path: string, message: string, rule: LintRule): LintFinding {
  return { file: location.file, line: location.line, column: location.column, path, message: `${message}${aliasNote(location.alias)}`, rule };
}

function conditions(expr: Expression, location: SourceLocation, path: string, out: LintFinding[]): void {
  for (const c of conditionFindings(expr)) {
    if (c.kind === 'duplicate') {
      out.push(at(location, path, `\`${c.text}\` appears twice in one ${c.op}: one of them does nothing`, LintRules.duplicate));
    } else {
      out.push(at(location, path, c.op === 'and'
        ? `\`${c.text}\` and its negation in one and: this never matches`
        : `\`${c.text}\` or its negation: this always matches`, LintRules.contradiction));
    }
  }
}

/**
 * ZW106: an enabled skip rule whose only effect is on the custom rules after it (`ruleset` or `phase`
 * `current`, no `phases` nor `products`) and after which no enabled custom rule comes skips nothing
 * (a skip applies only to what follows it; the service accepts such a rule silently, as it does a
 * managed-rules exception after the execute rule it names).
 */
function idleSkips(rules: readonly DesiredCustomRule[], out: LintFinding[]): void {
  rules.forEach((rule, i) => {
    const p = rule.actionParameters;
    if (rule.action !== 'skip' || !rule.enabled || p === undefined) return;
    if ((p.phases?.length ?? 0) > 0 || (p.products?.length ?? 0) > 0 || (p.ruleset === undefined && p.phase === undefined)) return;
    if (rules.slice(i + 1).some((r) => r.enabled)) return;
    const form = p.ruleset !== undefined ? 'ruleset: current' : 'phase: current';
    out.push(at(rule.fieldLocations?.action_parameters ?? rule.location, `custom_rules.${rule.ref}.action_parameters`,
      `this skip rule skips nothing: \`${form}\` skips the custom rules after it, and no enabled custom rule follows it; move it above the rules it is meant to skip`, LintRules.idleSkip));
  });
}

/**
 * The lint findings of one valid zone, in manifest order.
 * @example lintZone(loadResult.zones[0]).map((f) => f.rule.id)
 */
export function lintZone(zone: DesiredZone): LintFinding[] {
  const out: LintFinding[] = [];
  const keys = new WeakMap<Expression, string>();
  const earlier: { ref: string; action: string; expr: Expression }[] = [];
  for (const rule of zone.customRules ?? []) {
    const expr = parsed(rule.expression);
    if (expr === undefined) continue;
    const location = rule.fieldLocations?.expression ?? rule.location;
    const path = `custom_rules.${rule.ref}.expression`;
    conditions(expr, location, path, out);
    if (!rule.enabled) continue;
    for (const e of earlier) {
      const cover = covers(e.expr, expr, keys);
      if (cover === undefined) continue;
      out.push(at(location, path, cover === 'ip'
        ? `every address this rule matches is in the wider range of the earlier rule ${e.ref} (${e.action}), which ends the evaluation first: this rule never decides`
        : `the earlier rule ${e.ref} (${e.action}) matches every request this rule matches and ends the evaluation first: this rule never decides`,
      cover === 'ip' ? LintRules.ipShadowed : LintRules.unreachable));
      break;
    }
    if (Terminating.has(rule.action)) earlier.push({ ref: rule.ref, action: rule.action, expr });
  }
  idleSkips(zone.customRules ?? [], out);
  for (const filter of zone.filters) {
    const expr = parsed(filter.expression);
    if (expr === undefined) continue;
    conditions(expr, filter.fieldLocations?.expression ?? filter.location, filter.inline ? `firewall_rules.${filter.ref}.expression` : `filters.${filter.ref}.expression`, out);
  }
  return out;
}
