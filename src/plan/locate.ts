/**
 * Where the manifest declares a planned object, for findings found after planning (pre-flight):
 * looked up through the desired zone's sections without naming any kind.
 */
import type { DesiredZone, SourceLocation } from '../manifest/index.js';

/**
 * Where the manifest declares the object `ref`: looked up through the desired zone's sections
 * without naming any (a section keyed by ref, or a list of entries carrying `ref`, whose entries
 * carry their `location`); else the section named like the kind.
 */
export function locateObject(desired: DesiredZone, ref: string, kind: string): SourceLocation | undefined {
  for (const value of Object.values(desired) as unknown[]) {
    const hit = entryOf(value, ref);
    if (hit !== undefined) return hit;
  }
  return desired.locations[kind] ?? desired.locations[`${kind}s`];
}

function entryOf(section: unknown, ref: string): SourceLocation | undefined {
  if (section === null || typeof section !== 'object') return undefined;
  const located = (v: unknown): SourceLocation | undefined => {
    const loc = v !== null && typeof v === 'object' ? (v as { location?: unknown }).location : undefined;
    return loc !== null && typeof loc === 'object' && 'line' in loc ? (loc as SourceLocation) : undefined;
  };
  if (section instanceof Map) return located(section.get(ref));
  if (Array.isArray(section)) {
    for (const e of section) {
      if (e !== null && typeof e === 'object' && ((e as { ref?: unknown }).ref === ref || (e as { key?: unknown }).key === ref)) return located(e);
    }
    return undefined;
  }
  if (Object.prototype.hasOwnProperty.call(section, ref)) return located((section as Record<string, unknown>)[ref]);
  return undefined;
}
