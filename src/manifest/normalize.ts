/**
 * Normalises checked manifest data into a `DesiredZone`: the zone's own fields (file, zone name,
 * `plan`, where each top-level section was written), then every kind writes its part (refs from
 * keys, canonical expressions, defaults, resolved aliases: see each kind's `normalize`). Kinds read
 * only the parts the checks found clean, so this also builds a partial zone for plan-tier checks of
 * a manifest with errors.
 */
import type { ExpressionTable } from './check-expressions.js';
import type { DesiredZone, SourceLocation } from './desired.js';
import { locationOf } from './field-locations.js';
import type { ZoneManifest } from './generated/manifest-types.js';
import { kinds } from './kinds.js';
import { ownText } from './source.js';
import type { Checks } from './view.js';

/** Every top-level section: the zone's own, then each kind's. */
const topSections: readonly string[] = ['zone', 'plan', ...kinds.flatMap((kind) => kind.sections)];

/** Builds the desired zone from checked data (entries that failed a check are left out). */
export function normalize(checks: Checks, data: Record<string, unknown>, expressions: ExpressionTable): DesiredZone {
  const m = data as unknown as ZoneManifest;
  const { locator } = checks;
  const locations: Record<string, SourceLocation> = {};
  for (const section of topSections) if (data[section] !== undefined) locations[section] = locationOf(locator, [section]);
  // The kinds' parts are written below: the required ones by the kinds that own them, which always write them.
  const zone = {
    file: locator.file,
    // Its own copy: the name is kept after the zone is planned (a run's closing lines), and a slice would keep the whole text.
    zone: typeof m.zone === 'string' ? ownText(m.zone) : '',
    locations,
  } as DesiredZone;
  if (m.plan !== undefined && checks.isClean(['plan'])) zone.plan = m.plan;
  for (let k = 0; k < kinds.length; k++) kinds[k].normalize(zone, checks, data, expressions[k]);
  return zone;
}
