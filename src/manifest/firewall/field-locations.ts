/**
 * Where the fields of a filter and of a firewall rule were written (`fieldLocations` of the desired
 * objects), with a shortcut for the usual entries: a filter that has only its expression, a rule
 * that has only its action and filter (nearly all of a large zone's), whose locations are written as
 * literals of exactly their fields.
 */
import type { SourceLocation } from '../source-location.js';
import { someFieldLocations } from '../field-locations.js';
import type { Locator } from '../locate.js';
import type { MapInfo } from '../positions.js';

/** The fields whose locations a filter and a firewall rule keep (`fieldLocations`), in this order. */
export const FilterFields = ['expression', 'description', 'paused'] as const;
export const FirewallRuleFields = ['action', 'filter', 'priority', 'paused', 'products', 'description'] as const;

/** `fieldLocations` of a filter's map; `info`: its positions, when the caller has them. */
export function filterFieldLocations(locator: Locator, holder: unknown, info = locator.containerOf(holder)): Partial<Record<string, SourceLocation>> {
  if (info?.kind !== 'map') return {};
  const map = holder as Record<string, unknown>;
  return onlyExpression(locator, map, info) ?? someFieldLocations(locator, map, info, FilterFields);
}

/** `fieldLocations` of a firewall rule's map; `info`: its positions, when the caller has them. */
export function ruleFieldLocations(locator: Locator, holder: unknown, info = locator.containerOf(holder)): Partial<Record<string, SourceLocation>> {
  if (info?.kind !== 'map') return {};
  const map = holder as Record<string, unknown>;
  return onlyActionAndFilter(locator, map, info) ?? someFieldLocations(locator, map, info, FirewallRuleFields);
}

/**
 * The locations of a filter that has only its expression, as an object of exactly that field (one
 * filled in key by key keeps room for four; they are kept as long as the zone); undefined otherwise.
 */
function onlyExpression(locator: Locator, holder: Record<string, unknown>, info: MapInfo): Partial<Record<string, SourceLocation>> | undefined {
  if (info.size !== 1 || holder.expression === undefined) return undefined;
  const i = info.findAfter('expression', -1);
  return i < 0 ? undefined : { expression: locator.childAt(holder, 'expression', info.nodeStart(i, holder.expression)) };
}

/** The locations of a rule that has only its action and filter, as an object of exactly those fields; undefined otherwise. */
function onlyActionAndFilter(locator: Locator, holder: Record<string, unknown>, info: MapInfo): Partial<Record<string, SourceLocation>> | undefined {
  if (info.size !== 2 || holder.action === undefined || holder.filter === undefined) return undefined;
  const a = info.findAfter('action', -1);
  const f = a < 0 ? -1 : info.findAfter('filter', a);
  if (f < 0) return undefined;
  return { action: locator.childAt(holder, 'action', info.nodeStart(a, holder.action)), filter: locator.childAt(holder, 'filter', info.nodeStart(f, holder.filter)) };
}
