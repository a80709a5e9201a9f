/**
 * The options of `Engine.open`: where the engine keeps its state, how it opens it (read-only, in
 * memory, waiting for another process), what it serves (limits, resources, strict shapes) and its
 * test hooks. Apart from `engine.ts` so that opening (`engine-state.ts`) and the engine share them.
 */
import type { ResourceModule } from './context.js';
import type { PlanLimitsOverride } from './limits.js';

/** Options of `Engine.open`. */
export interface EngineOptions {
  /** State directory: one SQLite file per zone object plus the registry. Created if missing; one process at a time. */
  dir: string;
  /** Per-tier quota and entitlement overrides (defaults: the real service's figures). */
  limits?: PlanLimitsOverride;
  /** Where unexpected errors are reported (default: stderr). Never sent to clients. */
  logError?: (message: string, err: unknown) => void;
  /** The zone's resource modules (default: `resources.ts`); for tests and embedders. */
  resources?: readonly ResourceModule[];
  /**
   * Answer with the real API's shapes only (`serve --strict`): no extension routes or fields
   * (`strict.ts`). Direct calls such as `createZone` still work.
   */
  strict?: boolean;
  /** How long to wait for another process holding the state directory (the CLI's `--lock-timeout`); default 0: refuse at once. */
  lockTimeoutMs?: number;
  /**
   * Only read (a plan): nothing in `dir` is created or written, no lock file is taken, and a
   * `serve` or `apply` holding the directory does not stop the reader (`storage/read-only.ts`);
   * a missing directory reads as an engine without zones. Calls that would write are refused.
   */
  readOnly?: boolean;
  /**
   * A writer (`serve`) answers reads of a zone, account or registry file it may not write (made
   * read-only to it) and refuses that object's writes with `ERR_STATE_ACCESS`, nothing written
   * (`ObjectNamespaceOptions.readsWhenNotWritable`). Default false: such a file refuses the object's open.
   */
  readsWhenNotWritable?: boolean;
  /** Keep everything in memory, nothing on disk (`dir` only names the engine): a scratch engine, gone at close. */
  memory?: boolean;
  /**
   * Test hook: polls a list bulk operation answers `pending`/`running` before its final status
   * (default 0: completed at once); meanwhile other item writes of the account get 429.
   */
  listOperationPolls?: number;
}
