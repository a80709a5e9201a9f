/**
 * The compared attributes of a WAF custom rule, desired or live, in one form so that notation never
 * shows as a change: canonical expressions, the service's defaults filled in (`enabled: true`,
 * description `''`, skip `logging: {enabled: true}`), skip sets in the service's order, and
 * `action_parameters` / `logging` only where the action takes them. Also the request body of a rule.
 */
import { inOrder, type DesiredCustomRule } from '../../manifest/index.js';
import { liveExpressionText, type Canonicalizer } from '../canonical.js';
import type { AttributeValue, Attributes } from '../change.js';
import { isUnmanagedPhaseRule, phaseRuleBodyHead } from '../phase-rules.js';
import type { CustomRuleBody, CustomRuleParameters, LiveCustomRule } from './live.js';
import { SkipPhaseOrder, SkipProducts } from '../../api/index.js';

/** True for a live rule zonewall did not write (`isUnmanagedPhaseRule`). */
export const isUnmanagedCustomRule: (r: LiveCustomRule) => boolean = isUnmanagedPhaseRule;

/** `action_parameters` in comparable form (null when the action takes none or none are set). */
function parameters(action: string, p: CustomRuleParameters | undefined): AttributeValue {
  if (p === undefined) return null;
  const out: Record<string, AttributeValue> = {};
  if (action === 'block' && p.response !== undefined) out.response = { ...p.response };
  if (action === 'skip') {
    if (p.ruleset !== undefined) out.ruleset = p.ruleset;
    if (p.phases !== undefined) out.phases = inOrder(p.phases, SkipPhaseOrder);
    if (p.products !== undefined) out.products = inOrder(p.products, SkipProducts);
  }
  // Parameters the planner does not know (another service's, or a newer API's) are compared raw.
  if (action !== 'block' && action !== 'skip' && Object.keys(p).length > 0) return p as unknown as AttributeValue;
  return Object.keys(out).length > 0 ? out : null;
}

function logging(action: string, l: { enabled: boolean } | undefined): AttributeValue {
  return action === 'skip' ? { enabled: l?.enabled ?? true } : null;
}

/** A live rule's attributes; its expression is the desired text when it means the same (`desired`, the rule it is compared with). */
export function liveCustomAttributes(r: LiveCustomRule, canon: Canonicalizer, desired?: string): Attributes {
  return {
    action: r.action,
    expression: liveExpressionText(canon, r.expression, desired),
    description: r.description ?? '',
    enabled: r.enabled !== false,
    logging: logging(r.action, r.logging),
    action_parameters: parameters(r.action, r.action_parameters),
    ref: r.ref ?? '',
  };
}

/** A desired rule's attributes. */
export function desiredCustomAttributes(d: DesiredCustomRule): Attributes {
  return {
    action: d.action,
    expression: d.expression,
    description: d.description,
    enabled: d.enabled,
    logging: logging(d.action, d.logging),
    action_parameters: parameters(d.action, d.actionParameters),
    ref: d.ref,
  };
}

/** The body that writes a desired rule (with `id` to keep a live rule in a PUT). */
export function desiredCustomBody(d: DesiredCustomRule, id?: string): CustomRuleBody {
  return {
    ...phaseRuleBodyHead(d, id),
    ...(d.logging !== undefined ? { logging: d.logging } : {}),
    ...(d.actionParameters !== undefined ? { action_parameters: d.actionParameters } : {}),
  };
}

/** A live rule sent back as it is (a PUT keeps it): server-filled fields left out. */
export function keptCustomBody(r: LiveCustomRule): CustomRuleBody {
  const { version: _v, last_updated: _l, ...rest } = r;
  return rest;
}

/** A live rule in one line, as the unmanaged list shows it. */
export function describeCustomRule(r: LiveCustomRule): string {
  const disabled = r.enabled === false ? ' (disabled)' : '';
  return `${r.action} when ${r.expression}${disabled}`;
}
