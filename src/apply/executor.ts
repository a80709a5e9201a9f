/**
 * The one interface through which apply carries out the writes of a kind (`Write` ops), and what
 * an apply learns as it goes. Each kind that has writes of its own has an executor file
 * (`apply/<kind>.ts`), registered in `executors.ts`; phase writes (entry point PUTs and single-rule
 * calls) have one generic executor (`phase-writes.ts`).
 */
import type { Write } from '../plan/index.js';
import type { Provider } from '../providers/index.js';
import type { RuleIds } from './phase-writes.js';

/** What an apply learns as it goes: ids of objects created during the apply, and of rules, by ref. */
export interface ApplyIds {
  /** Ids of created objects by `<op prefix>:<ref>` (e.g. `filter:api-paths`). */
  created: Map<string, string>;
  rules: RuleIds;
}

/** Carries out the writes of one kind: one batch of one phase per call (one request for batched APIs). */
export interface WriteExecutor {
  /** The write ops it carries out. */
  readonly ops: readonly Write['op'][];
  execute(provider: Provider, zoneId: string, writes: Write[], ids: ApplyIds): Promise<void>;
}
