/**
 * Normalises checked manifest data into a `DesiredZone`: keys become refs, expressions their
 * canonical form, defaults are filled in, inline filters become filters of their own (ref = the
 * rule's key, following the rule's `renamed_from`), priorities become effective priorities, bypass
 * products are put in one fixed order, and aliases are resolved. It reads only the parts the checks
 * found clean, so it can also build a partial zone for plan-tier checks of a manifest with errors.
 */
import { format, parse } from '../expr/index.js';
import { resolvePackage } from './managed-rules/catalog.js';
import type { CheckedExpression, ExpressionTable } from './check-expressions.js';
import { effectivePriorities } from './firewall/check-priorities.js';
import type {
  DesiredCustomRule, DesiredFilter, DesiredFirewallAction, DesiredFirewallRule, DesiredManagedRuleset, DesiredPreviousWaf, DesiredZone,
  SourceLocation,
} from './desired.js';
import type { DocPath } from './errors.js';
import type { CustomRule, FirewallRule, ManagedRuleset, PreviousWaf, ZoneManifest } from './generated/manifest-types.js';
import { FilterFields, RuleFields, SectionLocations, childLocation, fieldLocations, locationOf, withMatches } from './field-locations.js';
import type { Locator } from './locate.js';
import type { MapInfo, SeqInfo } from './positions.js';
import { SkipProducts, inOrder, normalizeCustomRule } from './custom-rules/normalize.js';
import { normalizeManagedRuleset } from './managed-rules/normalize.js';
import { normalizePageRules } from './page-rules/check.js';
import { ownText } from './source.js';
import { entriesOf, isRecord, type Checks } from './view.js';

const topSections = ['zone', 'plan', 'filters', 'firewall_rules', 'custom_rules', 'managed_rules', 'previous_waf', 'page_rules', 'waf_migration'] as const;


let matchAll: string | undefined;
/** The canonical form of `true`, the default expression of managed rulesets. */
function canonicalTrue(): string {
  const canonical = matchAll ?? format(parse('true', { phase: 'http_request_firewall_managed' }));
  matchAll = canonical;
  return canonical;
}

/** Builds the desired zone from checked data (entries that failed a check are left out). */
export function normalize(checks: Checks, data: Record<string, unknown>, expressions: ExpressionTable): DesiredZone {
  const m = data as unknown as ZoneManifest;
  const { locator } = checks;
  const at = (path: DocPath): SourceLocation => locationOf(locator, path);
  const locations: Record<string, SourceLocation> = {};
  for (const section of topSections) if (data[section] !== undefined) locations[section] = at([section]);
  const lists = new ZoneLists(checks, data);
  const zone: DesiredZone = {
    file: locator.file,
    // Its own copy: the name is kept after the zone is planned (a run's closing lines), and a slice would keep the whole text.
    zone: typeof m.zone === 'string' ? ownText(m.zone) : '',
    filters: lists.filters,
    firewallRules: lists.rules,
    locations,
  };
  if (m.plan !== undefined && checks.isClean(['plan'])) zone.plan = m.plan;
  if (m.waf_migration !== undefined && checks.isClean(['waf_migration'])) zone.wafMigration = m.waf_migration;
  normalizeFilters(lists, checks, data, expressions);
  normalizeRules(lists, checks, data, expressions);
  lists.finish();
  if (isRecord(m.custom_rules)) zone.customRules = normalizeCustom(checks, data, expressions);
  if (Array.isArray(m.managed_rules)) zone.managedRules = normalizeManaged(checks, m.managed_rules, expressions);
  if (isRecord(m.previous_waf) && checks.isClean(['previous_waf'])) zone.previousWaf = normalizePreviousWaf(m.previous_waf, locator);
  if (isRecord(m.page_rules)) zone.pageRules = normalizePageRules(checks, m.page_rules, at);
  return zone;
}

/**
 * The zone's filters and firewall rules, in lists sized up front and filled in order (pushed one by
 * one, a list of 1,000 is copied a dozen times as it grows); `finish` cuts them to what was added.
 */
class ZoneLists {
  readonly filters: DesiredFilter[];
  readonly rules: DesiredFirewallRule[];
  private filterCount = 0;
  private ruleCount = 0;

  constructor(checks: Checks, data: Record<string, unknown>) {
    const rules = entriesOf(data.firewall_rules, checks);
    let inline = 0;
    for (let i = 0; i < rules.values.length; i++) if (isRecord(rules.values[i].filter)) inline++;
    this.filters = new Array<DesiredFilter>(entriesOf(data.filters, checks).keys.length + inline);
    this.rules = new Array<DesiredFirewallRule>(rules.keys.length);
  }

  addFilter(filter: DesiredFilter): void {
    this.filters[this.filterCount++] = filter;
  }

  addRule(rule: DesiredFirewallRule): void {
    this.rules[this.ruleCount++] = rule;
  }

  finish(): void {
    this.filters.length = this.filterCount;
    this.rules.length = this.ruleCount;
  }
}

function normalizeFilters(lists: ZoneLists, checks: Checks, data: Record<string, unknown>, expressions: ExpressionTable): void {
  const locations = new SectionLocations(checks.locator, data.filters, 'filters');
  const { keys, values } = entriesOf(data.filters, checks);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const f = values[i];
    const checked = expressions.filters[i];
    if (checked === undefined || !checks.isCleanEntry('filters', key)) continue;
    const location = locations.of(key, f);
    lists.addFilter(filterOf(checks.locator, key, f, f, checked, location, false, locations.child()));
  }
}

/**
 * A filter from its fields (`f`), the map its expression was written in (`holder`, whose positions
 * are `holderInfo` when the caller has them) and its checked expression.
 */
function filterOf(
  locator: Locator, ref: string, f: Record<string, unknown>, holder: Record<string, unknown>, checked: CheckedExpression,
  location: SourceLocation, inline: boolean, holderInfo = locator.containerOf(holder),
): DesiredFilter {
  const filter: DesiredFilter = {
    ref,
    expression: checked.canonical,
    description: typeof f.description === 'string' ? f.description : '',
    paused: f.paused === true,
    inline,
    location,
    fieldLocations: withMatches(fieldLocations(locator, holder, FilterFields, holderInfo), locator, holder, checked, holderInfo),
  };
  if (typeof f.renamed_from === 'string') filter.renamedFrom = f.renamed_from;
  return filter;
}

function normalizeRules(lists: ZoneLists, checks: Checks, data: Record<string, unknown>, expressions: ExpressionTable): void {
  const entries = entriesOf(data.firewall_rules, checks);
  const priorities = effectivePriorities(entries).priority;
  const { locator } = checks;
  const locations = new SectionLocations(locator, data.firewall_rules, 'firewall_rules');
  for (let i = 0; i < entries.keys.length; i++) {
    const key = entries.keys[i];
    const raw = entries.values[i];
    if (!checks.isCleanEntry('firewall_rules', key)) continue;
    const rule = raw as unknown as FirewallRule;
    if (typeof rule.filter !== 'string') {
      const checked = isRecord(rule.filter) ? expressions.inline[i] : undefined;
      if (checked === undefined) continue;
      // The inline filter's ref follows the rule's key, and so does its rename.
      const inline: Record<string, unknown> = { ...rule.filter, renamed_from: rule.renamed_from };
      const location = childLocation(locator, raw, 'filter', ['firewall_rules', key, 'filter']);
      lists.addFilter(filterOf(locator, key, inline, raw.filter as Record<string, unknown>, checked, location, true));
    }
    const location = locations.of(key, raw);
    lists.addRule(ruleOf(locator, key, rule, priorities[i], location, locations.child()));
  }
}

function ruleOf(
  locator: Locator, key: string, rule: FirewallRule, priority: number | null, location: SourceLocation, ruleInfo: MapInfo | SeqInfo | undefined,
): DesiredFirewallRule {
  // Bypass products are the skip products of custom rules; a set, kept in the service's order.
  const products = rule.products === undefined ? [] : inOrder(rule.products, SkipProducts);
  const out: DesiredFirewallRule = {
    ref: key,
    action: rule.action as DesiredFirewallAction,
    filterRef: typeof rule.filter === 'string' ? rule.filter : key,
    priority,
    description: rule.description ?? '',
    paused: rule.paused ?? false,
    products,
    location,
    fieldLocations: fieldLocations(locator, rule, RuleFields, ruleInfo),
  };
  if (rule.renamed_from !== undefined) out.renamedFrom = rule.renamed_from;
  return out;
}

function normalizeCustom(checks: Checks, data: Record<string, unknown>, expressions: ExpressionTable): DesiredCustomRule[] {
  const out: DesiredCustomRule[] = [];
  const { keys, values } = entriesOf(data.custom_rules, checks);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const raw = values[i];
    const base = ['custom_rules', key];
    const checked = expressions.custom[i];
    if (!checks.isClean(base) || checked === undefined) continue;
    const fields = withMatches({
      ...fieldLocations(checks.locator, raw, ['action', 'expression', 'enabled', 'logging', 'action_parameters', 'description']),
      // A block `response` is plan-gated: the tier check points at it.
      ...fieldLocations(checks.locator, raw.action_parameters, ['response']),
    }, checks.locator, raw, checked);
    out.push(normalizeCustomRule(key, raw as unknown as CustomRule, checked.canonical, locationOf(checks.locator, base), fields));
  }
  return out;
}

function normalizeManaged(checks: Checks, items: ManagedRuleset[], expressions: ExpressionTable): DesiredManagedRuleset[] {
  const out: DesiredManagedRuleset[] = [];
  items.forEach((item, i) => {
    const base = ['managed_rules', i];
    if (!checks.isClean(base) || !isRecord(item)) return;
    const checked = item.expression === undefined ? canonicalTrue() : expressions.managed[i]?.canonical;
    if (checked === undefined) return;
    const fields = fieldLocations(checks.locator, item, ['ruleset', 'expression', 'action', 'enabled', 'overrides']);
    out.push(normalizeManagedRuleset(item, checked, locationOf(checks.locator, base), fields));
  });
  return out;
}

function normalizePreviousWaf(waf: PreviousWaf, locator: Locator): DesiredPreviousWaf {
  const keyAt = (path: DocPath): SourceLocation => locator.locationAt(locator.spanOf(path, 'key').start);
  const keys = (section: 'packages' | 'groups' | 'rules', resolve: (key: string) => string = (k) => k): Record<string, SourceLocation> =>
    Object.fromEntries(Object.keys(waf[section] ?? {}).map((key) => [resolve(key), keyAt(['previous_waf', section, key])]));
  const packages: DesiredPreviousWaf['packages'] = {};
  for (const [key, settings] of Object.entries(waf.packages ?? {})) packages[resolvePackage(key)] = { ...settings };
  return {
    packages, groups: { ...(waf.groups ?? {}) }, rules: { ...(waf.rules ?? {}) }, location: locationOf(locator, ['previous_waf']),
    keyLocations: { packages: keys('packages', resolvePackage), groups: keys('groups'), rules: keys('rules') },
  };
}
