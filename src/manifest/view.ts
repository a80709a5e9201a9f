/**
 * Tolerant reading of manifest data after schema validation. Later checks run even when the schema
 * found problems (so one run reports everything), so they read the data through these helpers, which
 * never assume a shape, and skip entries the schema already reported (`Checks.isClean`).
 */
import type { ManifestIssue } from './errors.js';
import type { ListReference } from './lists/desired.js';
import type { Locator } from './locate.js';
import { pathKey } from './schema.js';

/** A plain map (not a list, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The entries of a map whose values are maps, in document order, as two lists side by side (index
 * loops over them allocate nothing per entry, where `for (const [k, v] of ...)` makes an iterator
 * result and a destructuring per entry until the loop is optimised).
 */
export interface Entries {
  readonly keys: readonly string[];
  readonly values: readonly Record<string, unknown>[];
}

const NoEntries: Entries = { keys: [], values: [] };

/** `entriesOf` answers by map: manifest data is never changed after reading, and every check walks the same sections. */
const entriesMemo = new WeakMap<object, Entries>();

/**
 * The entries of a map whose values are maps, in document order; none when the value is not a map.
 * The lists are shared between callers (a section of 1,000 filters is walked by several checks):
 * never change them.
 */
export function entriesOf(value: unknown, checks?: Checks): Entries {
  if (!isRecord(value)) return NoEntries;
  let entries = entriesMemo.get(value);
  if (entries === undefined) {
    // The keys (as the reader wrote them down when it can: a section of 1,000 keys is a dictionary
    // object, whose `Object.keys` collects and sorts them), and their values into a list of that size
    // (`Object.values` allocates twice as much); copies only when some value is not a map.
    const keys = checks?.writtenKeys(value) ?? Object.keys(value);
    const values = new Array<unknown>(keys.length);
    let maps = 0;
    for (let i = 0; i < keys.length; i++) if (isRecord(values[i] = value[keys[i]])) maps++;
    entries = maps === keys.length
      ? { keys, values: values as Record<string, unknown>[] }
      : { keys: keys.filter((_, i) => isRecord(values[i])), values: values.filter(isRecord) };
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
  /** What is valid but likely wrong (a retired field): reported, never blocking. */
  readonly warnings: ManifestIssue[] = [];
  /** Every `$name` of the document's valid expressions (checked once all manifests are loaded). */
  readonly listReferences: ListReference[] = [];

  constructor(
    readonly locator: Locator,
    private readonly dirty: ReadonlySet<string>,
  ) {}

  /** True when the schema found nothing wrong at or below `path`. */
  isClean(path: readonly (string | number)[]): boolean {
    // Most manifests have no schema issue: then no key is built for every entry each check visits.
    return this.dirty.size === 0 || !this.dirty.has(pathKey(path));
  }

  /** True when the schema found nothing wrong anywhere (every path is clean). */
  allClean(): boolean {
    return this.dirty.size === 0;
  }

  /** `isClean([section, key])`, without making the path. */
  isCleanEntry(section: string, key: string): boolean {
    return this.dirty.size === 0 || !this.dirty.has(`${section}\u0000${key}`);
  }

  /** Reports an issue at `path`. */
  report(path: readonly (string | number)[], message: string, anchor: 'node' | 'key' | 'value' = 'node'): void {
    this.issues.push(this.locator.issue(path, message, anchor));
  }

  /**
   * The keys of the map `value` in document order, from the positions the reader recorded in the
   * order it set them; undefined when it has none. Not `Object.keys`: JavaScript lists array-index
   * keys (`"3"`, `"20"`) first, in numeric order, and key order is evaluation order for custom and
   * rate limiting rules.
   */
  writtenKeys(value: object): string[] | undefined {
    const info = this.locator.containerOf(value);
    return info?.kind === 'map' ? info.keyList() : undefined;
  }

  /** The 1-based line where `path` was written (for "already defined at line N"). */
  lineOf(path: readonly (string | number)[]): number {
    return this.locator.lines.position(this.locator.spanOf(path).start).line;
  }
}
