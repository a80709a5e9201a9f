/**
 * Normalises `managed_rules` into `DesiredManagedRuleset`s: aliases resolved to ruleset ids, default
 * ref/expression/enabled filled in, and the OWASP shorthands folded into overrides in the service's
 * shape (paranoia level n disables categories paranoia-level-(n+1)..4; `score_threshold` and `action`
 * become an override of rule 949110). Categories are sorted by name and rules by id, so two manifests
 * that mean the same produce the same overrides and the planner's comparison is stable.
 */
import { format, parse } from '../../expr/index.js';
import type { DesiredZone } from '../desired.js';
import type { CheckedExpression } from '../expression-check.js';
import { fieldLocations, locationOf } from '../field-locations.js';
import type { ManagedRuleset } from '../generated/manifest-types.js';
import type { SourceLocation } from '../source-location.js';
import { isRecord, type Checks } from '../view.js';
import {
  OwaspAnomalyRuleId, OwaspMaxParanoiaLevel, OwaspRulesetId, OwaspScoreThresholds, paranoiaCategory, resolveManagedRuleset,
} from './catalog.js';
import type { DesiredManagedException, DesiredManagedOverrides, DesiredManagedRuleset, DesiredManagedSkip } from './desired.js';

let matchAll: string | undefined;
/** The canonical form of `true`, the default expression of managed rulesets. */
function canonicalTrue(): string {
  const canonical = matchAll ?? format(parse('true', { phase: 'http_request_firewall_managed' }));
  matchAll = canonical;
  return canonical;
}

/** Writes the zone's `managedRules` when the manifest has the section. */
export function normalizeManagedRules(
  zone: DesiredZone, checks: Checks, data: Record<string, unknown>, expressions: readonly (CheckedExpression | undefined)[],
): void {
  if (!Array.isArray(data.managed_rules)) return;
  const items = data.managed_rules as ManagedRuleset[];
  const out: DesiredManagedRuleset[] = [];
  const exceptions: DesiredManagedException[] = [];
  items.forEach((item, i) => {
    const base = ['managed_rules', i];
    if (!checks.isClean(base) || !isRecord(item)) return;
    const checked = item.expression === undefined ? canonicalTrue() : expressions[i]?.canonical;
    if (checked === undefined) return;
    if (item.skip !== undefined) {
      const fields = fieldLocations(checks.locator, item, ['skip', 'expression', 'enabled', 'logging']);
      exceptions.push(normalizeManagedException(item, checked, out.length, locationOf(checks.locator, base), fields));
      return;
    }
    const fields = fieldLocations(checks.locator, item, ['ruleset', 'expression', 'action', 'enabled', 'overrides']);
    out.push(normalizeManagedRuleset(item, checked, locationOf(checks.locator, base), fields));
  });
  zone.managedRules = out;
  zone.managedExceptions = exceptions;
}

/** What an exception skips, aliases resolved to ruleset ids (rule ids in the order written). */
export function normalizeSkip(skip: NonNullable<ManagedRuleset['skip']>): DesiredManagedSkip {
  if (skip === 'current') return { ruleset: 'current' };
  if (skip.rulesets !== undefined) return { rulesets: skip.rulesets.map(resolveManagedRuleset) };
  const rules: Record<string, string[]> = {};
  for (const [name, ids] of Object.entries(skip.rules ?? {})) rules[resolveManagedRuleset(name)] = [...ids];
  return { rules };
}

/** One exception item (`skip`) as the planner wants it; `after` is the number of deployments before it. */
export function normalizeManagedException(
  item: ManagedRuleset,
  canonicalExpression: string,
  after: number,
  location: SourceLocation,
  fieldLocations: Partial<Record<string, SourceLocation>>,
): DesiredManagedException {
  return {
    ref: item.ref!,
    skip: normalizeSkip(item.skip!),
    expression: canonicalExpression,
    description: item.description ?? '',
    enabled: item.enabled ?? true,
    ...(item.logging !== undefined ? { logging: { enabled: item.logging.enabled } } : {}),
    after,
    location,
    fieldLocations,
  };
}

type CategoryOverride = DesiredManagedOverrides['categories'][number];
type RuleOverride = DesiredManagedOverrides['rules'][number];

/** Copies only the defined fields, so deep comparisons never see `key: undefined`. */
function defined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** The score a threshold level or number stands for. */
export function scoreThreshold(value: ManagedRuleset['score_threshold']): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? value : OwaspScoreThresholds[value];
}

/** The overrides of one item, shorthands folded in, in canonical order. */
export function normalizeOverrides(item: ManagedRuleset, rulesetId: string): DesiredManagedOverrides {
  const o = item.overrides ?? {};
  const isOwasp = rulesetId === OwaspRulesetId;
  const categories: CategoryOverride[] = (o.categories ?? []).map((c) => defined({ category: c.category, action: c.action, enabled: c.enabled }));
  const rules: RuleOverride[] = (o.rules ?? []).map((r) => defined({
    id: r.id, action: r.action, enabled: r.enabled, score_threshold: r.score_threshold,
  }));
  if (isOwasp && item.paranoia_level !== undefined) {
    for (let level = item.paranoia_level + 1; level <= OwaspMaxParanoiaLevel; level++) {
      categories.push({ category: paranoiaCategory(level), enabled: false });
    }
  }
  if (isOwasp && (item.score_threshold !== undefined || item.action !== undefined)) {
    rules.push(defined({ id: OwaspAnomalyRuleId, action: item.action, score_threshold: scoreThreshold(item.score_threshold) }));
  }
  categories.sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  rules.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // For rulesets other than OWASP, the item's `action` is shorthand for overrides.action.
  const action = o.action ?? (isOwasp ? undefined : item.action);
  return defined({ action, enabled: o.enabled, categories, rules });
}

/** One `managed_rules` item as the planner wants it. */
export function normalizeManagedRuleset(
  item: ManagedRuleset,
  canonicalExpression: string,
  location: SourceLocation,
  fieldLocations: Partial<Record<string, SourceLocation>>,
): DesiredManagedRuleset {
  // Only deployments (items with `ruleset`) come here: exceptions are `normalizeManagedException`'s.
  const rulesetId = resolveManagedRuleset(item.ruleset!);
  return {
    ref: item.ref ?? item.ruleset!,
    rulesetId,
    enabled: item.enabled ?? true,
    expression: canonicalExpression,
    description: item.description ?? '',
    overrides: normalizeOverrides(item, rulesetId),
    location,
    fieldLocations,
  };
}
