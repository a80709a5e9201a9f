/**
 * The shape of a differential case. A case is one async function over an object's `storage` and
 * `ctx` that returns observations; the suite runs it in a fresh workerd object and in a fresh
 * zonewall object and compares the two. Type-only imports: the cases are bundled into the workerd
 * script, where nothing of zonewall exists at run time.
 */
import type { ObjectState, ObjectStorage } from '../../../src/storage/index.js';

/** A deliberate difference: what each runtime observes, and why zonewall keeps its behaviour. */
export interface Difference {
  /** One line: why zonewall differs here. */
  reason: string;
  workerd: unknown;
  zonewall: unknown;
}

/** One case of the differential suite. */
export interface DiffCase {
  /** Unique; also the object's name on both sides, so each case starts from empty storage. */
  name: string;
  run(storage: ObjectStorage, ctx: ObjectState): unknown;
  /**
   * A later phase, for what happens after the first event ends (an alarm runs only once the object
   * is idle): run as fresh events on the same object until `settled` says the observations are
   * final. The case then observes `{ first, later }`.
   */
  later?: { run(storage: ObjectStorage, ctx: ObjectState): unknown; settled(observed: unknown): boolean };
  /** Set where zonewall deliberately differs; each side's observations must then equal its own. */
  differs?: Difference;
}

/** Defines cases with their names as keys, so a name cannot be repeated. */
export function defineCases(group: string, cases: Record<string, Omit<DiffCase, 'name'> | DiffCase['run']>): DiffCase[] {
  return Object.entries(cases).map(([name, c]) => ({ name: `${group}: ${name}`, ...(typeof c === 'function' ? { run: c } : c) }));
}
