/**
 * Normalises the `custom_rules` section into `DesiredCustomRule`s, in key order (the evaluation
 * order): canonical expressions, defaults filled in the service's way (`enabled: true`, description
 * `''`), sets (`phases`, `products`) sorted into the service's documented order, and
 * `action_parameters` kept only where the action takes them, so notation-only edits compare equal.
 */
import { SkipPhaseOrder, SkipProducts } from '../../api/index.js';
import type { DesiredZone } from '../desired.js';
import type { CheckedExpression } from '../expression-check.js';
import { fieldLocations, locationOf, withMatches } from '../field-locations.js';
import type { CustomRule } from '../generated/manifest-types.js';
import { inOrder } from '../in-order.js';
import type { SourceLocation } from '../source-location.js';
import { entriesOf, isRecord, type Checks } from '../view.js';
import type { DesiredCustomAction, DesiredCustomParameters, DesiredCustomRule } from './desired.js';


/** Writes the zone's `customRules` when the manifest has the section. */
export function normalizeCustomRules(
  zone: DesiredZone, checks: Checks, data: Record<string, unknown>, expressions: readonly (CheckedExpression | undefined)[],
): void {
  if (!isRecord(data.custom_rules)) return;
  const out: DesiredCustomRule[] = [];
  const { keys, values } = entriesOf(data.custom_rules, checks);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const raw = values[i];
    const base = ['custom_rules', key];
    const checked = expressions[i];
    if (!checks.isClean(base) || checked === undefined) continue;
    const fields = withMatches({
      ...fieldLocations(checks.locator, raw, ['action', 'expression', 'enabled', 'logging', 'action_parameters', 'description']),
      // A block `response` is plan-gated: the tier check points at it.
      ...fieldLocations(checks.locator, raw.action_parameters, ['response']),
    }, checks.locator, raw, checked);
    out.push(normalizeCustomRule(key, raw as unknown as CustomRule, checked.canonical, locationOf(checks.locator, base), fields));
  }
  zone.customRules = out;
}

function parametersOf(rule: CustomRule): DesiredCustomParameters | undefined {
  const p = rule.action_parameters;
  if (p === undefined) return undefined;
  const out: DesiredCustomParameters = {};
  if (rule.action === 'block' && p.response !== undefined) out.response = { ...p.response };
  if (rule.action === 'skip') {
    if (p.ruleset !== undefined) out.ruleset = p.ruleset;
    if (p.phase !== undefined) out.phase = p.phase;
    if (p.phases !== undefined) out.phases = inOrder(p.phases, SkipPhaseOrder);
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
