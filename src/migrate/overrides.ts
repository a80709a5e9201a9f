/**
 * Deleting URI-based WAF overrides, the one blocker of the migration a zone owner removes through
 * the previous WAF's API (seed 002: "cannot migrate until those overrides are deleted with the
 * delete-a-WAF-override operation"). The manifest cannot express these overrides, so they are named
 * by id (or all of them); without `force` nothing is deleted and the list is returned for review.
 */
import type { LiveWafOverride, LiveZoneInfo } from '../plan/index.js';
import type { Provider } from '../providers/index.js';
import { MigrationError } from './errors.js';

/** What `deleteUriOverrides` did or (without force) would do. */
export interface OverrideDeletion {
  zone: LiveZoneInfo;
  /** The overrides selected. */
  selected: LiveWafOverride[];
  /** True when they were deleted. */
  deleted: boolean;
}

/**
 * Deletes the zone's URI-based overrides with the given ids (`all` for every one); with `force`
 * false, only selects them.
 *
 * @example await deleteUriOverrides(provider, 'example.com', 'all', true)
 */
export async function deleteUriOverrides(provider: Provider, zoneName: string, ids: string[] | 'all', force: boolean): Promise<OverrideDeletion> {
  const { zone } = await provider.resolveZone(zoneName);
  const live = await provider.readZone(zone.id);
  if (live.previousWaf === null) {
    throw new MigrationError(`${zone.name} has migrated to the new WAF: the previous WAF and its URI-based overrides are gone`);
  }
  const existing = live.previousWaf.overrides;
  const unknown = ids === 'all' ? [] : ids.filter((id) => !existing.some((o) => o.id === id));
  if (unknown.length > 0) {
    throw new MigrationError(`${zone.name} has no URI-based override ${unknown.join(', ')}; its overrides: ${existing.length > 0 ? existing.map((o) => o.id).join(', ') : 'none'}`);
  }
  if (ids !== 'all' && ids.length === 0) {
    throw new MigrationError('name the overrides to delete by id, or pass --all');
  }
  const selected = ids === 'all' ? existing : existing.filter((o) => ids.includes(o.id));
  if (!force) return { zone, selected, deleted: false };
  for (const o of selected) await provider.deleteWafOverride(zone.id, o.id);
  return { zone, selected, deleted: true };
}
