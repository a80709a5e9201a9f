/**
 * Normalises `previous_waf` into `DesiredPreviousWaf`: package aliases resolved to package ids, and
 * where each package, group and rule key was written, for plan findings.
 */
import type { DesiredZone } from '../desired.js';
import type { DocPath } from '../errors.js';
import { locationOf } from '../field-locations.js';
import type { PreviousWaf } from '../generated/manifest-types.js';
import type { Locator } from '../locate.js';
import type { SourceLocation } from '../source-location.js';
import { isRecord, type Checks } from '../view.js';
import { resolvePackage } from './catalog.js';
import type { DesiredPreviousWaf } from './desired.js';

/** Writes the zone's `previousWaf` when the manifest has a clean section. */
export function normalizePreviousWafSection(zone: DesiredZone, checks: Checks, data: Record<string, unknown>): void {
  if (isRecord(data.previous_waf) && checks.isClean(['previous_waf'])) zone.previousWaf = normalizePreviousWaf(data.previous_waf as PreviousWaf, checks.locator);
}

function normalizePreviousWaf(waf: PreviousWaf, locator: Locator): DesiredPreviousWaf {
  const keyAt = (path: DocPath): SourceLocation => locator.location(path, 'key');
  const keys = (section: 'packages' | 'groups' | 'rules', resolve: (key: string) => string = (k) => k): Record<string, SourceLocation> =>
    Object.fromEntries(Object.keys(waf[section] ?? {}).map((key) => [resolve(key), keyAt(['previous_waf', section, key])]));
  const packages: DesiredPreviousWaf['packages'] = {};
  for (const [key, settings] of Object.entries(waf.packages ?? {})) packages[resolvePackage(key)] = { ...settings };
  return {
    packages, groups: { ...(waf.groups ?? {}) }, rules: { ...(waf.rules ?? {}) }, location: locationOf(locator, ['previous_waf']),
    keyLocations: { packages: keys('packages', resolvePackage), groups: keys('groups'), rules: keys('rules') },
  };
}
