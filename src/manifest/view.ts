/**
 * Tolerant reading of manifest data after schema validation. Later checks run even when the schema
 * found problems (so one run reports everything), so they read the data through these helpers, which
 * never assume a shape, and skip entries the schema already reported (`Checks.isClean`).
 */
import type { ManifestIssue } from './errors.js';
import type { Locator } from './locate.js';
import { pathKey } from './schema.js';

/** A plain map (not a list, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `entriesOf` answers by map: manifest data is never changed after reading, and every check walks the same sections. */
const entriesMemo = new WeakMap<object, [string, Record<string, unknown>][]>();

/**
 * The entries of a map, in document order; none when the value is not a map. The list is shared
 * between callers (a section of 1,000 filters is walked by several checks): never change it.
 */
export function entriesOf(value: unknown): readonly [string, Record<string, unknown>][] {
  if (!isRecord(value)) return [];
  let entries = entriesMemo.get(value);
  if (entries === undefined) {
    // `Object.keys`, then one array: `Object.entries(...).filter(...)` built a second list of every
    // entry, and `for...in` over a large map (a dictionary object) costs a lookup per key.
    entries = [];
    for (const key of Object.keys(value)) {
      const v = value[key];
      if (isRecord(v)) entries.push([key, v]);
    }
    entriesMemo.set(value, entries);
  }
  return entries;
}

/** The string at `obj[field]`, if it is one. */
export function stringAt(obj: Record<string, unknown>, field: string): string | undefined {
  const v = obj[field];
  return typeof v === 'string' ? v : undefined;
}

/** The state shared by the checks of one document: where to report, and what is already broken. */
export class Checks {
  readonly issues: ManifestIssue[] = [];

  constructor(
    readonly locator: Locator,
    private readonly dirty: ReadonlySet<string>,
  ) {}

  /** True when the schema found nothing wrong at or below `path`. */
  isClean(path: readonly (string | number)[]): boolean {
    // Most manifests have no schema issue: then no key is built for every entry each check visits.
    return this.dirty.size === 0 || !this.dirty.has(pathKey(path));
  }

  /** Reports an issue at `path`. */
  report(path: readonly (string | number)[], message: string, anchor: 'node' | 'key' | 'value' = 'node'): void {
    this.issues.push(this.locator.issue(path, message, anchor));
  }

  /** The 1-based line where `path` was written (for "already defined at line N"). */
  lineOf(path: readonly (string | number)[]): number {
    return this.locator.lines.position(this.locator.spanOf(path).start).line;
  }
}
