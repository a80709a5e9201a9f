/**
 * Converts a Terraform ruleset resource (`cloudflare_ruleset`/`svc_ruleset`) of the
 * `http_request_firewall_managed` phase into the manifest's `managed_rules`. Handles the attribute
 * shapes of provider v3 (nested blocks as lists, override `status`), v4 and v5 (objects, nulls).
 * Rules other than `execute` (a skip rule, say) cannot be written as `managed_rules` items and are
 * reported instead.
 */
import type { ExecuteEntrypointRule, ManagedOverrides } from '../plan/index.js';
import { ManagedPhase } from './constants.js';
import { toManifestEntry } from './managed-rules.js';
import type { ManagedRuleEntry } from './managed-rules.js';
import { bool, enabledOf, list, num, obj, str } from './terraform-attributes.js';

/** The result of converting one ruleset resource. */
export interface RulesetConversion {
  entries: ManagedRuleEntry[];
  /** Why some rules were not converted. */
  problems: string[];
}

/** Whether a ruleset resource deploys the managed phase of a zone. */
export function isManagedPhaseRuleset(attrs: Record<string, unknown>): boolean {
  return str(attrs, 'phase') === ManagedPhase && str(attrs, 'account_id') === undefined;
}

/** Overrides of an execute rule, from any provider version. */
function overridesOf(value: unknown): ManagedOverrides | undefined {
  const o = obj(value);
  if (o === undefined) return undefined;
  const out: ManagedOverrides = {};
  const action = str(o, 'action');
  const enabled = enabledOf(o);
  if (action !== undefined) out.action = action;
  if (enabled !== undefined) out.enabled = enabled;
  const categories = list(o.categories).map(obj).filter((c) => c !== undefined).map((c) => {
    const item: { category: string; action?: string; enabled?: boolean } = { category: str(c, 'category') ?? '' };
    const a = str(c, 'action');
    const e = enabledOf(c);
    if (a !== undefined) item.action = a;
    if (e !== undefined) item.enabled = e;
    return item;
  });
  const rules = list(o.rules).map(obj).filter((r) => r !== undefined).map((r) => {
    const item: { id: string; action?: string; enabled?: boolean; score_threshold?: number } = { id: str(r, 'id') ?? '' };
    const a = str(r, 'action');
    const e = enabledOf(r);
    const t = num(r, 'score_threshold');
    if (a !== undefined) item.action = a;
    if (e !== undefined) item.enabled = e;
    if (t !== undefined) item.score_threshold = t;
    return item;
  });
  if (categories.length > 0) out.categories = categories;
  if (rules.length > 0) out.rules = rules;
  return out;
}

/** One rule of the resource as an entry point rule, or why it cannot be one. */
function ruleOf(value: unknown, index: number): ExecuteEntrypointRule | string {
  const r = obj(value) ?? {};
  const action = str(r, 'action');
  const params = obj(r.action_parameters);
  const id = str(params, 'id');
  if (action === 'skip') {
    return `rule ${index + 1} (skip${str(r, 'description') ? `: ${str(r, 'description')}` : ''}) is a managed rules exception: not converted yet (exceptions in managed_rules, issue 28, are not in this build); recreate it by hand once they are`;
  }
  if (action !== 'execute' || id === undefined) {
    return `rule ${index + 1} (${action ?? 'no action'}${str(r, 'description') ? `: ${str(r, 'description')}` : ''}) is not an execute of a managed ruleset: recreate it by hand (managed_rules holds execute rules only)`;
  }
  const overrides = overridesOf(params?.overrides);
  // A ref equal to the rule's id is the API's default, not a key: the item keeps its default key (the alias) and adoption writes it.
  const ref = str(r, 'ref');
  return {
    action: 'execute',
    expression: str(r, 'expression') ?? 'true',
    description: str(r, 'description') ?? '',
    ref: ref !== undefined && ref === str(r, 'id') ? undefined : ref,
    enabled: bool(r, 'enabled') ?? true,
    action_parameters: { id, ...(overrides !== undefined ? { overrides } : {}) },
  };
}

/** Converts a managed-phase ruleset resource's rules into `managed_rules` entries. */
export function convertRuleset(attrs: Record<string, unknown>): RulesetConversion {
  const entries: ManagedRuleEntry[] = [];
  const problems: string[] = [];
  list(attrs.rules).forEach((value, index) => {
    const rule = ruleOf(value, index);
    if (typeof rule === 'string') problems.push(rule);
    else entries.push(toManifestEntry(rule));
  });
  return { entries, problems };
}
