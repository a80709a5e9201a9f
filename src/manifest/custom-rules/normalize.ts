/**
 * Normalises the `custom_rules` section into `DesiredCustomRule`s, in key order (the evaluation
 * order): canonical expressions, defaults filled in the service's way (`enabled: true`, description
 * `''`), sets (`phases`, `products`) sorted into the service's documented order, and
 * `action_parameters` kept only where the action takes them, so notation-only edits compare equal.
 */
import type { CustomRule } from '../generated/manifest-types.js';
import type { DesiredCustomAction, DesiredCustomParameters, DesiredCustomRule, SourceLocation } from '../desired.js';

/** Skip `phases` in the service's evaluation order (reference/custom-rules.md §3.4). */
export const SkipPhases = ['http_ratelimit', 'http_request_firewall_managed', 'http_request_sbfm'] as const;
/** Skip `products` in the service's documented order. */
export const SkipProducts = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'] as const;

/** Sorts a set by a reference order (unknown values last, alphabetically). */
export function inOrder(values: readonly string[], order: readonly string[]): string[] {
  const rank = (v: string) => { const i = order.indexOf(v); return i < 0 ? order.length : i; };
  return [...new Set(values)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

function parametersOf(rule: CustomRule): DesiredCustomParameters | undefined {
  const p = rule.action_parameters;
  if (p === undefined) return undefined;
  const out: DesiredCustomParameters = {};
  if (rule.action === 'block' && p.response !== undefined) out.response = { ...p.response };
  if (rule.action === 'skip') {
    if (p.ruleset !== undefined) out.ruleset = p.ruleset;
    if (p.phases !== undefined) out.phases = inOrder(p.phases, SkipPhases);
    if (p.products !== undefined) out.products = inOrder(p.products, SkipProducts);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One custom rule, from checked data and its canonical expression. */
export function normalizeCustomRule(
  key: string, rule: CustomRule, canonical: string, location: SourceLocation, fieldLocations: Partial<Record<string, SourceLocation>>,
): DesiredCustomRule {
  const out: DesiredCustomRule = {
    ref: key,
    action: rule.action as DesiredCustomAction,
    expression: canonical,
    description: rule.description ?? '',
    enabled: rule.enabled ?? true,
    location,
    fieldLocations,
  };
  const params = parametersOf(rule);
  if (params !== undefined) out.actionParameters = params;
  if (rule.action === 'skip') out.logging = { enabled: rule.logging?.enabled ?? true };
  return out;
}
