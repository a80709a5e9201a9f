/**
 * The embedded-engine provider: the shared v4 provider over `EngineTransport`, with the engine's
 * state in a directory (`.zonewall/` unless `--state-dir` says otherwise). It is the only provider
 * that creates missing zones (when asked to) and that offers PITR bookmarks, so an apply can be
 * undone. This folder is the only part of `providers` that imports the engine.
 */
import { Engine } from '../../engine/index.js';
import type { LiveZoneInfo, PlanTier } from '../../plan/index.js';
import { V4Provider } from '../v4/v4-provider.js';
import { EngineTransport } from './transport.js';

/** Options of the embedded-engine provider. */
export interface EngineProviderOptions {
  /** State directory (created when missing). */
  stateDir: string;
  /** How long to wait for another process holding the state directory (default 0: refuse at once). */
  lockTimeoutMs?: number;
}

/** The v4 provider over the embedded engine. */
export class EngineProvider extends V4Provider {
  readonly kind = 'engine' as const;
  readonly description: string;

  constructor(readonly engine: Engine, stateDir: string) {
    super(new EngineTransport(engine));
    this.description = `embedded engine at ${stateDir}`;
  }

  protected async createZone(name: string, plan: PlanTier): Promise<LiveZoneInfo> {
    const zone = await this.engine.createZone(name, { plan });
    return { id: zone.id, name: zone.name, plan: zone.plan };
  }

  /** The in-process engine marks simplified-flow filters unless it runs strict. */
  protected override reportsFilterLocks(): boolean {
    return !this.engine.strict;
  }

  /** A PITR bookmark of the zone's storage now. */
  bookmark(zoneId: string): Promise<string> {
    return this.engine.bookmark(zoneId);
  }

  /** Restores the zone to a bookmark (takes effect immediately). */
  restore(zoneId: string, bookmark: string): Promise<void> {
    return this.engine.restore(zoneId, bookmark);
  }
}

/** Opens the embedded engine in `stateDir` and wraps it as a provider. */
export async function openEngineProvider(options: EngineProviderOptions): Promise<EngineProvider> {
  const engine = await Engine.open({ dir: options.stateDir, ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}) });
  return new EngineProvider(engine, options.stateDir);
}
