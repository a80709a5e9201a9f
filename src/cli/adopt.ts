/**
 * Sends adoption writes (each object gets its manifest key as `ref`, nothing else changes) in apply's
 * phase order: bulk PUTs of objects, then one PUT per rules phase (keeping ids). Used by `export` and by
 * `migrate --from-terraform-state --write`; the file is written first, so a failure says how to finish.
 */
import { sendWrites } from '../apply/index.js';
import { ZonewallError } from '../errors.js';
import { CallLimits, type AdoptionWrites } from '../plan/index.js';
import type { Provider } from '../providers/index.js';

/** Sends the writes; a failure names `retry`, the command that finishes adopting. */
export async function sendAdoption(provider: Provider, zoneId: string, writes: AdoptionWrites, retry: string): Promise<void> {
  try {
    await sendWrites(provider, zoneId, writes, CallLimits.batchSize);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ZonewallError(err instanceof ZonewallError ? err.code : 'ERR_PROVIDER',
      `the manifest was written, but adopting its objects failed: ${why}; ${retry} to finish adopting`, { cause: err });
  }
}
