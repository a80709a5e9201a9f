/**
 * Conversions between the entry point of the `http_request_firewall_managed` phase and the
 * manifest's `managed_rules` list: live (or proposed) execute rules become manifest entries that
 * normalise back to exactly those rules, so a plan of the rewritten manifest is empty. (The bodies
 * a migration step PUTs are built by `plan/migration/body.ts`, shared with `apply`.)
 */
import { compactOverrides } from '../plan/index.js';
import { isExecuteRule } from '../plan/index.js';
import type { EntrypointRule, ExecuteEntrypointRule, ManagedOverrides, SkipEntrypointRule } from '../plan/index.js';
import { ManagedRulesetIds, OwaspThresholds } from './constants.js';
import type { ManagedRulesetAlias } from './constants.js';
import { readOwaspOverrides, thresholdLevel } from './owasp.js';

/** One item of the manifest's `managed_rules` (schema `$defs/managedRuleset`), as plain data for YAML. */
export interface ManagedRuleEntry {
  /** A deployment's ruleset (an exception has `skip` instead). */
  ruleset?: string;
  /** An exception's skip: `current`, `{ rulesets }` or `{ rules }`, ruleset ids written as aliases. */
  skip?: 'current' | { rulesets: string[] } | { rules: Record<string, string[]> };
  logging?: { enabled: boolean };
  ref?: string;
  description?: string;
  enabled?: boolean;
  expression?: string;
  paranoia_level?: number;
  score_threshold?: keyof typeof OwaspThresholds | number;
  action?: string;
  overrides?: ManagedOverrides;
}

/** The catalog alias of a ruleset id, or the id itself. */
export function rulesetAlias(id: string): string {
  for (const [alias, rulesetId] of Object.entries(ManagedRulesetIds)) {
    if (rulesetId === id) return alias as ManagedRulesetAlias;
  }
  return id;
}

/**
 * The manifest entry for one execute rule. Defaults are left out (`enabled: true`, expression
 * `true`, an empty description, the default ref); the OWASP ruleset's paranoia level, score
 * threshold and 949110 action are written as the manifest's shorthand when they have its exact
 * shape, and anything else stays under `overrides`.
 */
export function toManifestEntry(rule: ExecuteEntrypointRule): ManagedRuleEntry {
  const rulesetId = rule.action_parameters.id;
  const ruleset = rulesetAlias(rulesetId);
  const entry: ManagedRuleEntry = { ruleset };
  // The normaliser's default ref is the alias, else the id: only a different live ref needs writing.
  if (rule.ref !== undefined && rule.ref !== '' && rule.ref !== ruleset) entry.ref = rule.ref;
  if (rule.description !== undefined && rule.description !== '') entry.description = rule.description;
  if (!rule.enabled) entry.enabled = false;
  if (rule.expression !== 'true') entry.expression = rule.expression;
  let overrides = rule.action_parameters.overrides;
  if (rulesetId === ManagedRulesetIds.owasp) {
    const { settings, rest } = readOwaspOverrides(overrides);
    if (settings.paranoiaLevel !== undefined) entry.paranoia_level = settings.paranoiaLevel;
    if (settings.scoreThreshold !== undefined) entry.score_threshold = thresholdLevel(settings.scoreThreshold);
    if (settings.action !== undefined) entry.action = settings.action;
    overrides = rest;
  }
  const compact = compactOverrides(overrides);
  if (compact !== undefined) entry.overrides = compact;
  return entry;
}

/**
 * The manifest exception for one skip rule (e.g. the migration's for a firewall rule that bypassed
 * the previous WAF). Its ref is the live rule's (the service gives a migrated rule its id as ref),
 * so a plan afterwards matches it; the expression and description are kept as the zone has them.
 */
export function toManifestException(rule: SkipEntrypointRule): ManagedRuleEntry {
  const p = rule.action_parameters;
  const skip: ManagedRuleEntry['skip'] = p.ruleset === 'current' ? 'current'
    : p.rulesets !== undefined ? { rulesets: p.rulesets.map(rulesetAlias) }
      : { rules: Object.fromEntries(Object.entries(p.rules ?? {}).map(([id, ids]) => [rulesetAlias(id), [...ids]])) };
  // Key order as a person writes an exception: what it is, what it skips, for which requests.
  const entry: ManagedRuleEntry = { ref: rule.ref !== undefined && rule.ref !== '' ? rule.ref : rule.id ?? '', skip, expression: rule.expression };
  if (rule.description !== undefined && rule.description !== '') entry.description = rule.description;
  if (!rule.enabled) entry.enabled = false;
  if (rule.logging !== undefined && !rule.logging.enabled) entry.logging = { enabled: false };
  return entry;
}

/**
 * The manifest's `managed_rules` for an entry point's rules, in order: executes become deployments,
 * skip rules exceptions (rules of any other action are left out).
 */
export function toManifestManagedRules(rules: readonly EntrypointRule[]): ManagedRuleEntry[] {
  let unnamed = 0;
  return rules.flatMap((r) => {
    if (isExecuteRule(r)) return [toManifestEntry(r)];
    if (r.action !== 'skip') return [];
    const entry = toManifestException(r);
    // A proposal's rules (a dry run, validation bodies) have no id or ref yet: number them.
    if (entry.ref === '') entry.ref = `exception-${++unnamed}`;
    return [entry];
  });
}
