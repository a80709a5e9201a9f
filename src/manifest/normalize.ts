/**
 * Normalises checked manifest data into a `DesiredZone`: keys become refs, expressions their
 * canonical form, defaults are filled in, inline filters become filters of their own (ref = the
 * rule's key, following the rule's `renamed_from`), priorities become effective priorities, bypass
 * products are put in one fixed order, and aliases are resolved. It reads only the parts the checks
 * found clean, so it can also build a partial zone for plan-tier checks of a manifest with errors.
 */
import { format, parse } from '../expr/index.js';
import { resolvePackage } from './catalog.js';
import type { CheckedExpression, ExpressionTable } from './check-expressions.js';
import { effectivePriorities } from './check-priorities.js';
import type {
  DesiredCustomRule, DesiredFilter, DesiredFirewallAction, DesiredFirewallRule, DesiredManagedRuleset, DesiredPreviousWaf, DesiredZone,
  SourceLocation,
} from './desired.js';
import type { DocPath } from './errors.js';
import type { CustomRule, FirewallRule, ManagedRuleset, PreviousWaf, ZoneManifest } from './generated/manifest-types.js';
import { mapValueOffset } from './expression-position.js';
import type { Locator } from './locate.js';
import type { MapInfo } from './positions.js';
import { SkipProducts, inOrder, normalizeCustomRule } from './normalize-custom.js';
import { normalizeManagedRuleset } from './normalize-managed.js';
import { normalizePageRules } from './page-rules.js';
import { ownText } from './source.js';
import { entriesOf, isRecord, type Checks } from './view.js';


const topSections = ['zone', 'plan', 'filters', 'firewall_rules', 'custom_rules', 'managed_rules', 'previous_waf', 'page_rules', 'waf_migration'] as const;

/** The fields whose locations a filter and a firewall rule keep (`fieldLocations`), in this order. */
const FilterFields = ['expression', 'description', 'paused'] as const;
const RuleFields = ['action', 'filter', 'priority', 'paused', 'products', 'description'] as const;

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

/** The file position of a path. */
export function locationOf(locator: Locator, path: DocPath): SourceLocation {
  return locator.locationAt(locator.spanOf(path).start);
}

/** The location of `parent[key]`, as `locationOf` its path gives it, from `parent`'s own positions. */
function childLocation(locator: Locator, parent: unknown, key: string, path: DocPath): SourceLocation {
  const start = locator.childStart(parent, key);
  return start === undefined ? locationOf(locator, path) : locator.locationAt(start);
}

/**
 * Locations of a section's entries (`filters.<key>`, `firewall_rules.<key>`), as `locationOf` gives
 * them, for a walk over the section in key order: each entry is looked for right after the previous
 * one, so a section of 1,000 entries needs no key index.
 */
class SectionLocations {
  private last = -1;
  private readonly info: MapInfo | undefined;

  constructor(private readonly locator: Locator, section: unknown, private readonly name: string) {
    const info = locator.containerOf(section);
    this.info = info?.kind === 'map' ? info : undefined;
  }

  /** The location of entry `key`, whose value is `value`. */
  of(key: string, value: unknown): SourceLocation {
    const r = this.info === undefined ? -1 : this.info.findAfter(key, this.last);
    if (r < 0) return locationOf(this.locator, [this.name, key]);
    this.last = r;
    return this.locator.locationAt(this.info!.nodeStart(r, value));
  }
}

/**
 * Where the first `matches` operator of the expression of `holder` (the map that holds it) is in
 * the file (`matches` in `fieldLocations`, for the tier check's caret), added to `fields` when the
 * expression has one.
 */
function withMatches(fields: Partial<Record<string, SourceLocation>>, locator: Locator, holder: unknown, checked: CheckedExpression): Partial<Record<string, SourceLocation>> {
  if (checked.matchesAt === undefined) return fields;
  const info = locator.containerOf(holder);
  const i = info?.kind === 'map' ? info.find('expression') : -1;
  const source = (holder as Record<string, unknown>).expression;
  if (i < 0 || typeof source !== 'string') return fields;
  const at = mapValueOffset(locator.doc.text, (info as MapInfo).valueSpan(i), source, checked.matchesAt);
  return { ...fields, matches: locator.locationAt(at) };
}

/** Where each of `fields` of the map `holder` was written (present fields only, in the order of `fields`). */
function fieldLocations(locator: Locator, holder: unknown, fields: readonly string[]): Partial<Record<string, SourceLocation>> {
  const info = locator.containerOf(holder);
  if (info?.kind !== 'map') return {};
  return usualFieldLocations(locator, holder as Record<string, unknown>, info, fields) ?? someFieldLocations(locator, holder as Record<string, unknown>, info, fields);
}

/**
 * `fieldLocations` of a filter that has only its expression, or of a rule that has only its action
 * and filter (nearly all of them), written as literals: an object of exactly its fields, where one
 * filled in key by key keeps room for four. They are kept as long as the zone; undefined otherwise.
 */
function usualFieldLocations(locator: Locator, holder: Record<string, unknown>, info: MapInfo, fields: readonly string[]): Partial<Record<string, SourceLocation>> | undefined {
  if (fields === FilterFields && info.size === 1 && holder.expression !== undefined) {
    const i = info.findAfter('expression', -1);
    return i < 0 ? undefined : { expression: locator.locationAt(info.nodeStart(i, holder.expression)) };
  }
  if (fields === RuleFields && info.size === 2 && holder.action !== undefined && holder.filter !== undefined) {
    const a = info.findAfter('action', -1);
    const f = a < 0 ? -1 : info.findAfter('filter', a);
    if (f < 0) return undefined;
    return { action: locator.locationAt(info.nodeStart(a, holder.action)), filter: locator.locationAt(info.nodeStart(f, holder.filter)) };
  }
  return undefined;
}

/** `fieldLocations`, field by field. */
function someFieldLocations(locator: Locator, holder: Record<string, unknown>, info: MapInfo, fields: readonly string[]): Partial<Record<string, SourceLocation>> {
  const out: Partial<Record<string, SourceLocation>> = {};
  for (let k = 0; k < fields.length; k++) {
    const f = fields[k];
    // Most fields are absent, and a read value is never undefined (an empty one is null): ask the object first.
    const value = holder[f];
    if (value === undefined) continue;
    const i = info.find(f);
    if (i >= 0) out[f] = locator.locationAt(info.nodeStart(i, value));
  }
  return out;
}

function normalizeFilters(lists: ZoneLists, checks: Checks, data: Record<string, unknown>, expressions: ExpressionTable): void {
  const locations = new SectionLocations(checks.locator, data.filters, 'filters');
  const { keys, values } = entriesOf(data.filters, checks);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const f = values[i];
    const checked = expressions.filters[i];
    if (checked === undefined || !checks.isCleanEntry('filters', key)) continue;
    lists.addFilter(filterOf(checks.locator, key, f, f, checked, locations.of(key, f), false));
  }
}

/** A filter from its fields (`f`), the map its expression was written in (`holder`) and its checked expression. */
function filterOf(
  locator: Locator, ref: string, f: Record<string, unknown>, holder: Record<string, unknown>, checked: CheckedExpression,
  location: SourceLocation, inline: boolean,
): DesiredFilter {
  const filter: DesiredFilter = {
    ref,
    expression: checked.canonical,
    description: typeof f.description === 'string' ? f.description : '',
    paused: f.paused === true,
    inline,
    location,
    fieldLocations: withMatches(fieldLocations(locator, holder, FilterFields), locator, holder, checked),
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
    lists.addRule(ruleOf(locator, key, rule, priorities[i], locations.of(key, raw)));
  }
}

function ruleOf(locator: Locator, key: string, rule: FirewallRule, priority: number | null, location: SourceLocation): DesiredFirewallRule {
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
    fieldLocations: fieldLocations(locator, rule, RuleFields),
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
