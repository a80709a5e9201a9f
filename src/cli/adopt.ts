/**
 * Sends adoption writes (each object gets its manifest key as `ref`, nothing else changes): filters
 * and firewall rules as bulk PUTs, then the custom rules phase (one PUT keeping ids), then the entry point. Used by `export` and by
 * `migrate --from-terraform-state --write`; the file is written first, so a failure says how to finish.
 */
import { CustomPhase, ManagedPhase } from '../api/index.js';
import { ZonewallError } from '../errors.js';
import type { AdoptionWrites } from '../plan/index.js';
import type { Provider } from '../providers/index.js';

/** Sends the writes; a failure names `retry`, the command that finishes adopting. */
export async function sendAdoption(provider: Provider, zoneId: string, writes: AdoptionWrites, retry: string): Promise<void> {
  const { filters, firewallRules, entrypoint, customRules } = writes;
  try {
    if (filters.length > 0) await provider.updateFilters(zoneId, filters);
    if (firewallRules.length > 0) await provider.updateFirewallRules(zoneId, firewallRules);
    if (customRules != null) await provider.putPhase(zoneId, CustomPhase, customRules);
    if (entrypoint !== null) await provider.putPhase(zoneId, ManagedPhase, entrypoint);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ZonewallError(err instanceof ZonewallError ? err.code : 'ERR_PROVIDER',
      `the manifest was written, but adopting its objects failed: ${why}; ${retry} to finish adopting`, { cause: err });
  }
}
