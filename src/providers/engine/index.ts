/**
 * The embedded-engine provider: the shared v4 provider over `EngineTransport`, with the engine's
 * state in a directory (`.zonewall/` unless `--state-dir` says otherwise). It is the only provider
 * that creates missing zones (when asked to: at the zone's first write, `pending.ts`) and that
 * offers PITR bookmarks, so an apply can be undone. This folder is the only part of `providers`
 * that imports the engine.
 */
import { resolve } from 'node:path';
import { Engine } from '../../engine/index.js';
import type { LiveZoneInfo, PlanTier } from '../../plan/index.js';
import { V4Provider } from '../v4/v4-provider.js';
import { PendingZones } from './pending.js';
import { holdPrivateState } from './private-state.js';
import { EngineTransport } from './transport.js';

/** Options of the embedded-engine provider. */
export interface EngineProviderOptions {
  /** State directory (created when missing). */
  stateDir: string;
  /** How long to wait for another process holding the state directory (default 0: refuse at once). */
  lockTimeoutMs?: number;
  /**
   * The command only reads (`plan`, `export`, ...): the engine writes nothing to the state
   * directory, creates no file, takes no lock file, and reads beside a `serve` or `apply` holding
   * it; a state directory that does not exist reads as one without zones (every zone reads as new).
   */
  readOnly?: boolean;
}

/** The v4 provider over the embedded engine. */
export class EngineProvider extends V4Provider {
  readonly kind = 'engine' as const;
  readonly description: string;
  readonly target: string;
  readonly #pending: PendingZones;
  readonly #onClose: (() => void) | undefined;

  /** `target`: `resolve(stateDir)` unless given (a copy of a zone has no directory). */
  constructor(readonly engine: Engine, stateDir: string, onClose?: () => void, target?: string) {
    const pending = new PendingZones(engine);
    super(new EngineTransport(engine, pending));
    this.#pending = pending;
    this.#onClose = onClose;
    this.description = `embedded engine at ${stateDir}`;
    this.target = target ?? resolve(stateDir);
  }

  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      this.#onClose?.();
    }
  }

  /** A missing zone reads as new; the engine creates it at its first write. */
  protected missingZone(name: string, create: { plan: PlanTier; id?: string; waf?: 'previous' | 'new' }): Promise<LiveZoneInfo> {
    return this.#pending.add(name, create.plan, create.id, create.waf);
  }

  /** Zones this provider created at their first write. */
  get zonesCreated(): readonly LiveZoneInfo[] {
    return this.#pending.created;
  }

  /** The in-process engine marks simplified-flow filters unless it runs strict. */
  protected override reportsFilterLocks(): boolean {
    return !this.engine.strict;
  }

  /** A PITR bookmark of the zone's storage now (taken just before an apply's first write: a zone not created yet is created first). */
  async bookmark(zoneId: string): Promise<string> {
    await this.#pending.create(zoneId);
    return this.engine.bookmark(zoneId);
  }

  /** Pre-flight: a provider on a copy of the zone (a pending zone's too) in a scratch engine (`Provider.validator`). */
  async validator(zoneId: string): Promise<EngineProvider> {
    const source = await this.#pending.engineFor('GET', `/zones/${zoneId}/filters`);
    const copy = await source.copyZone(zoneId, this.engine);
    return new EngineProvider(copy, 'a copy of the zone (pre-flight)', undefined, 'pre-flight copy');
  }

  /** Restores the zone to a bookmark (takes effect immediately). */
  restore(zoneId: string, bookmark: string): Promise<void> {
    return this.engine.restore(zoneId, bookmark);
  }

  /** A PITR bookmark of the account's lists now. */
  bookmarkAccount(accountId: string): Promise<string> {
    return this.engine.bookmarkAccount(accountId);
  }

  /** Restores the account's lists to a bookmark (takes effect immediately). */
  restoreAccount(accountId: string, bookmark: string): Promise<void> {
    return this.engine.restoreAccount(accountId, bookmark);
  }
}

/** Opens the embedded engine in `stateDir` and wraps it as a provider. */
export async function openEngineProvider(options: EngineProviderOptions): Promise<EngineProvider> {
  // A reader opens the directory without writing to it, a missing one too (it reads as empty).
  if (options.readOnly === true) return new EngineProvider(await Engine.open({ dir: options.stateDir, readOnly: true }), options.stateDir);
  // Opened for writing: what the engine creates in the state directory is the user's only (0700, 0600).
  const held = holdPrivateState(options.stateDir);
  try {
    const engine = await Engine.open({ dir: options.stateDir, ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}) });
    return new EngineProvider(engine, options.stateDir, () => held.release());
  } catch (err) {
    held.release();
    throw err;
  }
}
