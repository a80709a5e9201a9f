/**
 * The order in which a plan's writes run: by phase (`PhaseNames` of the registration list), then
 * kind, then ref. Changes without a write of their own sit where their kind places them
 * (`ResourcePlacement`): no-ops with their kind's updates or deletions, changes carried by a phase
 * write in that phase. A kind may order its deletions (`deleteOrder`: firewall rules go
 * last-evaluated-first). Within the filters phase updates run before creates, so an expression a
 * kept filter gives up is free before a new filter claims it (the service refuses duplicates).
 */
import type { Change } from './change.js';
import { PhaseNames, ResourceKinds, phaseOf, phaseRank, resourceOf } from './kinds.js';

const kinds = ResourceKinds.length;

/** The bucket of a change in apply order: its phase (of its first write, or its kind's placement) and its kind. */
function bucket(c: Change): number {
  const r = resourceOf(c.kind);
  // The length first: reading [0] of the no-ops' shared frozen empty list is a slow out-of-bounds load.
  const phase = c.writes.length > 0 ? phaseRank(phaseOf(c.writes[0]!)) : c.action === 'delete' ? r.deletedRank : r.keptRank;
  return phase * kinds + r.rank;
}

/**
 * Sorts changes into apply order: by phase, then kind, then ref. Stable, so the order of kinds whose
 * changes are `ordered` (their own evaluation order: the rules of a phase entry point) is kept. A
 * counting sort puts the changes in place by phase and kind (a plan has a few such buckets), then
 * each bucket is sorted by ref: no keyed copies of thousands of changes.
 */
export function orderChanges(changes: readonly Change[]): Change[] {
  const keys = new Uint16Array(changes.length); // bucket of each change: phase * kinds + kind
  const ends = new Array<number>(PhaseNames.length * kinds).fill(0); // bucket sizes, then offsets
  for (let i = 0; i < changes.length; i++) {
    const k = bucket(changes[i]!);
    keys[i] = k;
    ends[k]!++;
  }
  let at = 0;
  for (let k = 0; k < ends.length; k++) { // where each bucket starts; once filled, where it ends
    const n = ends[k]!;
    ends[k] = at;
    at += n;
  }
  const out = new Array<Change>(changes.length);
  for (let i = 0; i < changes.length; i++) out[ends[keys[i]!]!++] = changes[i]!;
  let start = 0;
  for (const end of ends) {
    const r = end - start > 1 ? resourceOf(out[start]!.kind) : undefined;
    if (r !== undefined && r.ordered !== true) {
      // A bucket holds deletions only or none (deleted and kept phases differ): a kind may order its deletions.
      const order = out[start]!.action === 'delete' && r.deleteOrder !== undefined ? r.deleteOrder : byRefThenId;
      const sorted = out.slice(start, end).sort(order);
      for (let i = 0; i < sorted.length; i++) out[start + i] = sorted[i]!;
    }
    start = end;
  }
  return out;
}

function byRefThenId(a: Change, b: Change): number {
  // Refs differ but for deletions of duplicates: one comparison of them decides.
  if (a.ref !== b.ref) return a.ref < b.ref ? -1 : 1;
  return compareText(a.id ?? '', b.id ?? '');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
