/**
 * Batches and their execution: the steps of a phase cut into batches of at most `batchSize`
 * objects (one request each; phases without a batch form, and phase writes, are one request per
 * step), and one batch sent through the provider by its kind's executor (`executors.ts`).
 */
import { batchGroup, perObject, type PhaseName, type PhaseWrite, type Write } from '../plan/index.js';
import type { Provider } from '../providers/index.js';
import type { ApplyIds } from './executor.js';
import { executorOf } from './executors.js';
import { RuleIds, executePhaseStep } from './phase-writes.js';
import { writePhases, type Phase, type Step } from './phases.js';

export type { ApplyIds } from './executor.js';

/** Steps sent in one request. */
export interface Batch {
  phase: PhaseName;
  steps: Step[];
}

/** The batches of a phase; writes of different batch groups never share a request (one option per call). */
export function batchesOf(phase: Phase, batchSize: number): Batch[] {
  const size = perObject(phase.name) ? 1 : batchSize;
  const out: Batch[] = [];
  for (const steps of byGroup(phase.steps)) {
    for (let i = 0; i < steps.length; i += size) out.push({ phase: phase.name, steps: steps.slice(i, i + size) });
  }
  return out;
}

/** The steps by batch group, lowest group first (one list when every step is in one group). */
function byGroup(steps: Step[]): Step[][] {
  const groups = new Map<number, Step[]>();
  for (const s of steps) {
    const g = s.kind === 'write' ? batchGroup(s.write) : 0;
    const list = groups.get(g);
    if (list === undefined) groups.set(g, [s]);
    else list.push(s);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, list]) => list);
}

/** Fresh id tables for one apply. */
export function newApplyIds(): ApplyIds {
  return { created: new Map(), rules: new RuleIds() };
}

/** Sends writes that carry no plan's changes (an export's adoption), phase by phase and batch by batch. */
export async function sendWrites(provider: Provider, zoneId: string, writes: { writes: readonly Write[]; phaseWrites: readonly PhaseWrite[] }, batchSize: number): Promise<void> {
  const ids = newApplyIds();
  for (const phase of writePhases(writes.writes, writes.phaseWrites)) {
    for (const batch of batchesOf(phase, batchSize)) await executeBatch(provider, zoneId, batch, ids);
  }
}

/** Sends one batch; records the ids of what it created. */
export async function executeBatch(provider: Provider, zoneId: string, batch: Batch, ids: ApplyIds): Promise<void> {
  const writes = [];
  for (const step of batch.steps) {
    if (step.kind === 'phase') await executePhaseStep(provider, zoneId, step.write, step.op, ids.rules);
    else writes.push(step.write);
  }
  if (writes.length > 0) await executorOf(writes[0]!.op).execute(provider, zoneId, writes, ids);
}
