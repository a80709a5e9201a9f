/**
 * Zone scopes of credentials: a credential may touch every zone (`'*'`) or the zones it lists, by
 * id or by name. An in-process caller (no scope) is trusted with every zone.
 */
import type { AuthScope } from './types.js';

/** True when `scope` lets the caller touch the zone (by id or by name). */
export function inScope(scope: AuthScope | undefined, zone: { id: string; name: string }): boolean {
  if (scope === undefined || scope.zones === '*') return true;
  return scope.zones.includes(zone.id) || scope.zones.includes(zone.name);
}

/** True when the scope covers every zone (needed to create zones it does not name). */
export function allZones(scope: AuthScope | undefined): boolean {
  return scope === undefined || scope.zones === '*';
}
