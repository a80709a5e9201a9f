/**
 * Opening an engine's state: the state directory (created private, locked against a second writer,
 * `state-lock.ts`), and the three object namespaces in it (`zones/`, `registry/`, `accounts/`) with
 * the registry's directory of zones and accounts loaded. A read-only engine (a plan) creates and
 * locks nothing; a memory engine touches no disk. What fails half-way is closed again.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectNamespace, StorageLockedError, type ObjectClass, type ObjectNamespaceOptions } from '../storage/index.js';
import { ZonewallError } from '../errors.js';
import { makePrivateDir } from '../lock-file.js';
import { accountObjectClass, type AccountObjectApi } from './account-object.js';
import type { ResourceModule } from './context.js';
import type { EngineOptions } from './engine-options.js';
import { resolvePlanLimits, type PlanLimitsConfig } from './limits.js';
import { resources as defaultResources } from './resources.js';
import { lockStateDir } from './state-lock.js';
import { zoneObjectClass, type ZoneObjectApi } from './zone-object.js';
import { RegistryDirectory } from './zones/directory.js';
import { RegistryObject, type RegistryApi } from './zones/registry.js';

/** An engine's opened state: what `Engine` is built from. */
export interface EngineState {
  zonesNs: ObjectNamespace<ZoneObjectApi>;
  registryNs: ObjectNamespace<RegistryApi>;
  accountsNs: ObjectNamespace<AccountObjectApi>;
  directory: RegistryDirectory;
  planLimits: PlanLimitsConfig;
  resources: readonly ResourceModule[];
  logError: (message: string, err: unknown) => void;
  /** Lets the state directory go (a no-op for a reader or a memory engine). */
  unlock: () => void;
  strict: boolean;
  readOnly: boolean;
}

/** Opens (creating if needed) the engine state of `options` (see the file's header). */
export async function openEngineState(options: EngineOptions): Promise<EngineState> {
  const planLimits = resolvePlanLimits(options.limits);
  const logError = options.logError ?? ((message: string, err: unknown) => {
    process.stderr.write(`zonewall engine: ${message}: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  });
  const readOnly = options.readOnly === true;
  // A reader takes no `engine.lock`: that lock keeps two writers apart; what keeps a writer from
  // changing files under a reader is the namespaces' shared lock (`storage/read-only.ts`).
  const memory = options.memory === true;
  const deadline = Date.now() + (options.lockTimeoutMs ?? 0);
  let unlock = (): void => undefined;
  if (!readOnly && !memory) {
    makePrivateDir(options.dir);
    mkdirSync(join(options.dir, 'zones'), { recursive: true, mode: 0o700 });
    mkdirSync(join(options.dir, 'registry'), { recursive: true, mode: 0o700 });
    mkdirSync(join(options.dir, 'accounts'), { recursive: true, mode: 0o700 });
    unlock = await lockStateDir(options.dir, options.lockTimeoutMs ?? 0);
  }
  const resources = options.resources ?? defaultResources;
  const ZoneObject = zoneObjectClass({ resources, planLimits, logError });
  let zonesNs: ObjectNamespace<ZoneObjectApi> | undefined;
  let registryNs: ObjectNamespace<RegistryApi> | undefined;
  let accountsNs: ObjectNamespace<AccountObjectApi> | undefined;
  const AccountObject = accountObjectClass({ operationPolls: options.listOperationPolls ?? 0, logError });
  try {
    // A read-only engine (a plan) may hold the namespaces' shared lock: a writer waits for it as
    // long as it would have waited for `engine.lock`.
    zonesNs = await openNamespace(ZoneObject, { dir: join(options.dir, 'zones'), backend: 'sqlite', readOnly, memory, accessRoot: options.dir, readsWhenNotWritable: options.readsWhenNotWritable === true, lockTimeoutMs: Math.max(0, deadline - Date.now()) }, options.dir);
    registryNs = await openNamespace(RegistryObject, { dir: join(options.dir, 'registry'), backend: 'sqlite', readOnly, memory, accessRoot: options.dir, readsWhenNotWritable: options.readsWhenNotWritable === true, lockTimeoutMs: Math.max(0, deadline - Date.now()) }, options.dir);
    accountsNs = await openNamespace(AccountObject, { dir: join(options.dir, 'accounts'), backend: 'sqlite', readOnly, memory, accessRoot: options.dir, readsWhenNotWritable: options.readsWhenNotWritable === true, lockTimeoutMs: Math.max(0, deadline - Date.now()) }, options.dir);
    const zoneObjects = zonesNs;
    const directory = await RegistryDirectory.load(registryNs.get('zones'), (id) => zoneObjects.get(id), { shared: false });
    return { zonesNs, registryNs, accountsNs, directory, planLimits, resources, logError, unlock, strict: options.strict === true, readOnly };
  } catch (err) {
    await zonesNs?.close();
    await registryNs?.close();
    await accountsNs?.close();
    unlock();
    throw err;
  }
}

/** `ObjectNamespace.open`, with a busy directory said in the engine's words (the CLI's `ERR_LOCKED`). */
async function openNamespace<T extends object>(ObjectClass: ObjectClass<T>, options: ObjectNamespaceOptions, stateDir: string): Promise<ObjectNamespace<T>> {
  try {
    return await ObjectNamespace.open(ObjectClass, options);
  } catch (err) {
    if (!(err instanceof StorageLockedError)) throw err;
    throw new ZonewallError('ERR_LOCKED', `the engine state directory ${stateDir} is being read by another process (a zonewall plan?); wait for it to finish, or pass --lock-timeout to wait`, { cause: err });
  }
}
