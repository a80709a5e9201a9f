/**
 * Apply's registration list: the executor of every kind that has writes of its own. The cores
 * (`batch.ts`, `run.ts`) reach the kinds' writes only through this file.
 */
import { ZonewallError } from '../errors.js';
import type { Write } from '../plan/index.js';
import type { WriteExecutor } from './executor.js';
import { firewallExecutor } from './firewall.js';
import { pageRulesExecutor } from './page-rules.js';
import { previousWafExecutor } from './previous-waf.js';

const executors: readonly WriteExecutor[] = [firewallExecutor, previousWafExecutor, pageRulesExecutor];
const byOp = new Map<string, WriteExecutor>(executors.flatMap((e) => e.ops.map((op) => [op, e] as const)));

/** The executor of a write op. */
export function executorOf(op: Write['op']): WriteExecutor {
  const e = byOp.get(op);
  if (e === undefined) throw new ZonewallError('ERR_INTERNAL', `no executor carries out write ${op}`);
  return e;
}
