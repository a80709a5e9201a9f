/**
 * Managed-rules exceptions (skip rules of the `http_request_firewall_managed` entry point) in the
 * planner: their attributes, live and desired, in one comparable form, the rule a desired exception
 * becomes in the entry point PUT, and how an unmatched desired exception adopts a live skip rule
 * zonewall did not write (the migration's, whose ref is empty or its id).
 */
import type { DesiredManagedException } from '../../manifest/index.js';
import { liveExpressionText, type Canonicalizer } from '../canonical.js';
import type { AttributeValue, Attributes } from '../change.js';
import type { SkipEntrypointRule, SkipParameters } from './live.js';

/** Skip parameters in a comparable form: rule ids sorted, rulesets in their order. */
export function skipAttribute(p: SkipParameters | DesiredManagedException['skip']): AttributeValue {
  if ('ruleset' in p && p.ruleset === 'current') return 'current';
  if ('rulesets' in p && p.rulesets !== undefined) return { rulesets: [...p.rulesets] };
  if ('rules' in p && p.rules !== undefined) {
    const rules: Record<string, AttributeValue> = {};
    for (const id of Object.keys(p.rules).sort()) rules[id] = [...p.rules[id]!].sort();
    return { rules };
  }
  return JSON.stringify(p);
}

/** A desired exception's attributes. */
export function desiredExceptionAttributes(e: DesiredManagedException): Attributes {
  return {
    skip: skipAttribute(e.skip),
    enabled: e.enabled,
    expression: e.expression,
    description: e.description,
    logging: e.logging?.enabled ?? true,
    ref: e.ref,
  };
}

/** A live skip rule's attributes, in the desired form. */
export function liveExceptionAttributes(r: SkipEntrypointRule, canon: Canonicalizer, desired?: string): Attributes {
  return {
    skip: skipAttribute(r.action_parameters),
    enabled: r.enabled,
    expression: liveExpressionText(canon, r.expression, desired),
    description: r.description ?? '',
    logging: r.logging?.enabled ?? true,
    ref: r.ref ?? '',
  };
}

/** The skip rule a desired exception becomes (with the live rule's id when it replaces one). */
export function exceptionRule(e: DesiredManagedException, liveId: string | undefined): SkipEntrypointRule {
  return {
    ...(liveId !== undefined ? { id: liveId } : {}),
    ref: e.ref,
    action: 'skip',
    expression: e.expression,
    description: e.description,
    enabled: e.enabled,
    action_parameters: structuredClone(e.skip) as SkipParameters,
    // Written explicitly, as the migration service writes a migrated skip rule (and custom rules
    // write theirs): `migrate --write` + `apply` then leaves the same rule as `migrate --mode`.
    logging: { enabled: e.logging?.enabled ?? true },
  };
}

/**
 * Whether a live skip rule zonewall did not write is the one a desired exception describes: the
 * same ref (a migrated rule's ref is its id, which the migration writes into the manifest), or the
 * same expression and the same skip.
 */
export function adoptsSkipRule(e: DesiredManagedException, r: SkipEntrypointRule, canon: Canonicalizer): boolean {
  if (r.ref !== undefined && r.ref !== '' && r.ref === e.ref) return true;
  const c = canon(r.expression);
  return c.ok && c.canonical === e.expression && JSON.stringify(skipAttribute(r.action_parameters)) === JSON.stringify(skipAttribute(e.skip));
}
