/**
 * Normalises `filters` and `firewall_rules` into the zone's `filters` and `firewallRules`: keys
 * become refs, expressions their canonical form, defaults are filled in, inline filters become
 * filters of their own (ref = the rule's key, following the rule's `renamed_from`), priorities
 * become effective priorities, and bypass products are put in the service's order.
 */
import { BypassProducts } from '../../api/index.js';
import type { CheckedExpression } from '../expression-check.js';
import type { DesiredZone } from '../desired.js';
import type { FirewallRule } from '../generated/manifest-types.js';
import { SectionLocations, childLocation, withMatches } from '../field-locations.js';
import { inOrder } from '../in-order.js';
import type { Locator } from '../locate.js';
import type { MapInfo, SeqInfo } from '../positions.js';
import type { SourceLocation } from '../source-location.js';
import { entriesOf, isRecord, type Checks } from '../view.js';
import { effectivePriorities } from './check-priorities.js';
import type { DesiredFilter, DesiredFirewallAction, DesiredFirewallRule } from './desired.js';
import type { FirewallExpressions } from './expressions.js';
import { filterFieldLocations, ruleFieldLocations } from './field-locations.js';

/** Writes the zone's filters and firewall rules. */
export function normalizeFirewall(zone: DesiredZone, checks: Checks, data: Record<string, unknown>, expressions: FirewallExpressions): void {
  const lists = new ZoneLists(checks, data);
  zone.filters = lists.filters;
  zone.firewallRules = lists.rules;
  normalizeFilters(lists, checks, data, expressions);
  normalizeRules(lists, checks, data, expressions);
  lists.finish();
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

function normalizeFilters(lists: ZoneLists, checks: Checks, data: Record<string, unknown>, expressions: FirewallExpressions): void {
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
    fieldLocations: withMatches(filterFieldLocations(locator, holder, holderInfo), locator, holder, checked, holderInfo),
  };
  if (typeof f.renamed_from === 'string') filter.renamedFrom = f.renamed_from;
  return filter;
}

function normalizeRules(lists: ZoneLists, checks: Checks, data: Record<string, unknown>, expressions: FirewallExpressions): void {
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
  // Bypass products are a set, kept in the service's order (the skip products of custom rules, in the same order).
  const products = rule.products === undefined ? [] : inOrder(rule.products, BypassProducts);
  const out: DesiredFirewallRule = {
    ref: key,
    action: rule.action as DesiredFirewallAction,
    filterRef: typeof rule.filter === 'string' ? rule.filter : key,
    priority,
    description: rule.description ?? '',
    paused: rule.paused ?? false,
    products,
    location,
    fieldLocations: ruleFieldLocations(locator, rule, ruleInfo),
  };
  if (rule.renamed_from !== undefined) out.renamedFrom = rule.renamed_from;
  return out;
}
