/**
 * Converts a Terraform ruleset resource (`cloudflare_ruleset`/`svc_ruleset`) of the
 * `http_request_firewall_managed` phase into the manifest's `managed_rules`. Handles the attribute
 * shapes of provider v3 (nested blocks as lists, override `status`), v4 and v5 (objects, nulls).
 * `execute` rules become deployments, `skip` rules managed-rules exceptions (in their places: an
 * exception skips what comes after it); rules of any other action are reported instead.
 */
import type { ExecuteEntrypointRule, ManagedOverrides, SkipEntrypointRule, SkipParameters } from '../plan/index.js';
import { ManagedPhase } from './constants.js';
import { toManifestEntry, toManifestException } from './managed-rules.js';
import type { ManagedRuleEntry } from './managed-rules.js';
import { bool, enabledOf, list, num, obj, slug, str, uniqueKey } from './terraform-attributes.js';

/** An exception of the conversion: its ref in the manifest and the live skip rule id the state names. */
export interface ExceptionSource { ref: string; id: string }

/** The result of converting one ruleset resource. */
export interface RulesetConversion {
  entries: ManagedRuleEntry[];
  /** The exceptions' refs and the live rule ids adoption gives them to. */
  exceptions: ExceptionSource[];
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

/**
 * The skip parameters of an exception, from either provider version: `ruleset = "current"`,
 * `rulesets` (a list), or `rules` (v4: a map of ruleset id to comma-separated rule ids; v5: a map
 * of ruleset id to a list), or undefined when it has none of them.
 */
function skipParametersOf(params: Record<string, unknown> | undefined): SkipParameters | undefined {
  if (str(params, 'ruleset') === 'current') return { ruleset: 'current' };
  const rulesets = list(params?.rulesets).filter((v): v is string => typeof v === 'string' && v !== '');
  if (rulesets.length > 0) return { rulesets };
  const rules = obj(params?.rules);
  if (rules === undefined) return undefined;
  const out: Record<string, string[]> = {};
  for (const [ruleset, ids] of Object.entries(rules)) {
    const values = typeof ids === 'string' ? ids.split(',') : list(ids);
    const clean = values.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter((v) => v !== '');
    if (clean.length > 0) out[ruleset] = clean;
  }
  return Object.keys(out).length > 0 ? { rules: out } : undefined;
}

/** A skip rule of the resource as an entry point rule, or why it cannot be an exception. */
function skipRuleOf(r: Record<string, unknown>, index: number): SkipEntrypointRule | string {
  const p = skipParametersOf(obj(r.action_parameters));
  const what = `rule ${index + 1} (skip${str(r, 'description') ? `: ${str(r, 'description')}` : ''})`;
  if (p === undefined) return `${what} skips no managed rules (no ruleset "current", rulesets or rules): not converted, recreate it by hand`;
  const logging = bool(obj(r.logging), 'enabled');
  return {
    action: 'skip',
    ...(str(r, 'id') !== undefined ? { id: str(r, 'id') } : {}),
    expression: str(r, 'expression') ?? 'true',
    description: str(r, 'description') ?? '',
    ...(str(r, 'ref') !== undefined ? { ref: str(r, 'ref') } : {}),
    enabled: bool(r, 'enabled') ?? true,
    action_parameters: p,
    ...(logging !== undefined ? { logging: { enabled: logging } } : {}),
  };
}

/** Why a skip rule skips nothing (the manifest refuses such an exception), or undefined. */
function idleSkip(p: SkipParameters, after: (ExecuteEntrypointRule | SkipEntrypointRule | string)[]): string | undefined {
  const deployed = new Set(after.flatMap((r) => (typeof r !== 'string' && r.action === 'execute' ? [r.action_parameters.id] : [])));
  if (p.ruleset === 'current') return deployed.size === 0 ? 'is `current` with no deployment after it' : undefined;
  const named = p.rulesets ?? Object.keys(p.rules ?? {});
  const missing = named.filter((id) => !deployed.has(id));
  return missing.length > 0 ? `names ruleset ${missing.join(', ')}, which no deployment after it executes` : undefined;
}

/** One rule of the resource as an entry point rule, or why it cannot be one. */
function ruleOf(value: unknown, index: number): ExecuteEntrypointRule | SkipEntrypointRule | string {
  const r = obj(value) ?? {};
  const action = str(r, 'action');
  const params = obj(r.action_parameters);
  const id = str(params, 'id');
  if (action === 'skip') return skipRuleOf(r, index);
  if (action !== 'execute' || id === undefined) {
    return `rule ${index + 1} (${action ?? 'no action'}${str(r, 'description') ? `: ${str(r, 'description')}` : ''}) is not an execute of a managed ruleset: recreate it by hand (managed_rules holds deployments and skip exceptions only)`;
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

/**
 * Converts a managed-phase ruleset resource's rules into `managed_rules` entries, in order. An
 * exception's ref (plans match it by ref) is the state's ref where it has one of its own (not its
 * id, the API's default), else a slug of its description, else `exception-` and the first 8
 * characters of its id: stable across provider versions and re-runs.
 */
export function convertRuleset(attrs: Record<string, unknown>): RulesetConversion {
  const entries: ManagedRuleEntry[] = [];
  const exceptions: ExceptionSource[] = [];
  const problems: string[] = [];
  const taken = new Set<string>();
  const rules = list(attrs.rules).map(ruleOf);
  rules.forEach((rule, index) => {
    if (typeof rule === 'string') { problems.push(rule); return; }
    if (rule.action === 'execute') { entries.push(toManifestEntry(rule)); return; }
    const idle = idleSkip(rule.action_parameters, rules.slice(index + 1));
    if (idle !== undefined) {
      problems.push(`rule ${index + 1} (skip${rule.description ? `: ${rule.description}` : ''}) ${idle}, so it skips nothing (an exception skips only the deployments after it): not converted; it stays in the zone unmanaged (delete it, or move it above the deployment in Terraform and convert again)`);
      return;
    }
    const own = rule.ref !== undefined && rule.ref !== rule.id ? rule.ref : undefined;
    const ref = uniqueKey([own, slug(rule.description ?? ''), rule.id !== undefined ? `exception-${rule.id.slice(0, 8)}` : undefined], taken, `exception-${index + 1}`);
    entries.push(toManifestException({ ...rule, ref }));
    if (rule.id !== undefined) exceptions.push({ ref, id: rule.id });
  });
  return { entries, exceptions, problems };
}
