/**
 * The writes of one resource kind in a plan's changes, for the quota checks of the kinds.
 */
import type { Change } from './change.js';
import type { Write } from './write.js';

/** Every write of the changes of `kind`, in plan order. */
export function writesOf(changes: readonly Change[], kind: Change['kind']): Write[] {
  const out: Write[] = [];
  // No-op changes (most of a large plan) write nothing, and their frozen list is slow to iterate.
  changes.forEach((c) => { if (c.kind === kind && c.writes.length > 0) out.push(...c.writes); });
  return out;
}

