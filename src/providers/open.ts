/**
 * Chooses and opens a provider: the embedded engine by default (state in `.zonewall/` unless
 * `stateDir` says otherwise), or the HTTP provider when a remote URL is given. The engine is
 * loaded lazily, so remote use never opens SQLite.
 */
import { resolve } from 'node:path';
import type { HttpProviderOptions } from './http/index.js';
import { baseUrlTarget, openHttpProvider, parseBaseUrl } from './http/index.js';
import type { Provider } from './provider.js';

/** The default state directory of the embedded engine. */
export const DefaultStateDir = '.zonewall';

/** How to open a provider. */
export interface ProviderOptions extends Partial<Omit<HttpProviderOptions, 'url'>> {
  /** Base URL of a v4 API; undefined means the embedded engine. */
  remote?: string;
  /** State directory of the embedded engine (default `.zonewall`). */
  stateDir?: string;
  /** How long the embedded engine waits for another process holding its state directory (default 0: refuse at once). */
  lockTimeoutMs?: number;
  /** The command only reads: nothing in the state directory is created, written or locked (`EngineProviderOptions.readOnly`). */
  readOnly?: boolean;
}

/** Which provider the options open, and its `Provider.target`, known before opening it. */
export function providerTarget(options: Pick<ProviderOptions, 'remote' | 'stateDir'>): Pick<Provider, 'kind' | 'target'> {
  const { remote, stateDir } = options;
  if (remote !== undefined && remote !== '') return { kind: 'http', target: baseUrlTarget(parseBaseUrl(remote)) };
  return { kind: 'engine', target: resolve(stateDir ?? DefaultStateDir) };
}

/**
 * Opens the provider the options ask for.
 * @example
 * const provider = await openProvider({ stateDir: '.zonewall' });
 * const { zone } = await provider.resolveZone('example.com', { create: { plan: 'enterprise' } });
 * const live = await provider.readZone(zone.id);
 */
export async function openProvider(options: ProviderOptions = {}): Promise<Provider> {
  const { remote, stateDir, lockTimeoutMs, readOnly, ...http } = options;
  if (remote !== undefined && remote !== '') return openHttpProvider({ ...http, url: remote });
  const { openEngineProvider } = await import('./engine/index.js');
  return openEngineProvider({ stateDir: stateDir ?? DefaultStateDir, ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}), ...(readOnly === true ? { readOnly } : {}) });
}
