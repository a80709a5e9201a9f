/**
 * Where a manifest's entries and their fields were written, as normalisation records them on the
 * desired objects (`location`, `fieldLocations`) for plan findings and error carets. Looked up in
 * the reader's positions (`positions.ts`) without key indexes where a walk in key order finds them.
 */
import type { CheckedExpression } from './expression-check.js';
import type { SourceLocation } from './source-location.js';
import type { DocPath } from './errors.js';
import { mapValueOffset } from './expression-position.js';
import type { Locator } from './locate.js';
import type { MapInfo, SeqInfo } from './positions.js';

/** The file position of a path (through an alias, the alias's: `Locator.location`). */
export function locationOf(locator: Locator, path: DocPath): SourceLocation {
  return locator.location(path);
}

/** The location of `parent[key]`, as `locationOf` its path gives it, from `parent`'s own positions. */
export function childLocation(locator: Locator, parent: unknown, key: string, path: DocPath): SourceLocation {
  const start = locator.childStart(parent, key);
  return start === undefined ? locationOf(locator, path) : locator.childAt(parent as object, key, start);
}

/**
 * Locations of a section's entries (`filters.<key>`, `firewall_rules.<key>`), as `locationOf` gives
 * them, for a walk over the section in key order: each entry is looked for right after the one
 * before, so a section of 1,000 entries needs no key index.
 */
export class SectionLocations {
  private last = -1;
  /** The entry `of` found last (-1: it found none, and took the path from the root). */
  private found = -1;
  private readonly info: MapInfo | undefined;

  constructor(private readonly locator: Locator, private readonly section: unknown, private readonly name: string) {
    const info = locator.containerOf(section);
    this.info = info?.kind === 'map' ? info : undefined;
  }

  /** The location of entry `key`, whose value is `value`. */
  of(key: string, value: unknown): SourceLocation {
    const r = this.info === undefined ? -1 : this.info.findAfter(key, this.last);
    this.found = r;
    if (r < 0) return locationOf(this.locator, [this.name, key]);
    this.last = r;
    return this.locator.childAt(this.section as object, key, this.info!.nodeStart(r, value));
  }

  /** The positions of the value of the entry `of` was last asked about, when it is a map or list and was found. */
  child(): MapInfo | SeqInfo | undefined {
    return this.found < 0 ? undefined : this.info!.child(this.found);
  }
}

/**
 * Where the first `matches` operator of the expression of `holder` (the map that holds it) is in
 * the file (`matches` in `fieldLocations`, for the tier check's caret), added to `fields` when the
 * expression has one.
 */
export function withMatches(
  fields: Partial<Record<string, SourceLocation>>, locator: Locator, holder: unknown, checked: CheckedExpression, known = locator.containerOf(holder),
): Partial<Record<string, SourceLocation>> {
  if (checked.matchesAt === undefined) return fields;
  const info = known;
  const i = info?.kind === 'map' ? info.find('expression') : -1;
  const source = (holder as Record<string, unknown>).expression;
  if (i < 0 || typeof source !== 'string') return fields;
  const at = mapValueOffset(locator.doc.text, (info as MapInfo).valueSpan(i), source, checked.matchesAt);
  return { ...fields, matches: locator.childAt(holder as object, 'expression', at) };
}

/**
 * Where each of `fields` of the map `holder` was written (present fields only, in the order of
 * `fields`); `info`: `holder`'s positions, when the caller has them (else they are looked up).
 */
export function fieldLocations(
  locator: Locator, holder: unknown, fields: readonly string[], info = locator.containerOf(holder),
): Partial<Record<string, SourceLocation>> {
  if (info?.kind !== 'map') return {};
  return someFieldLocations(locator, holder as Record<string, unknown>, info, fields);
}

/** `fieldLocations` of a map whose positions `info` are known, field by field. */
export function someFieldLocations(locator: Locator, holder: Record<string, unknown>, info: MapInfo, fields: readonly string[]): Partial<Record<string, SourceLocation>> {
  const out: Partial<Record<string, SourceLocation>> = {};
  for (let k = 0; k < fields.length; k++) {
    const f = fields[k];
    // Most fields are absent, and a read value is never undefined (an empty one is null): ask the object first.
    const value = holder[f];
    if (value === undefined) continue;
    const i = info.find(f);
    if (i >= 0) out[f] = locator.childAt(holder, f, info.nodeStart(i, value));
  }
  return out;
}
