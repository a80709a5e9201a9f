/**
 * The write of the managed entry point: one PUT of its whole rule list (execute and skip rules),
 * which a migration step also carries (`step`). Kept rules keep their ids.
 */
import { ManagedPhase } from '../../api/index.js';
import type { EntrypointRule } from './live.js';
import type { LiveZone } from '../live.js';
import type { PhaseWrite } from '../write.js';

/** The PUT of the `http_request_firewall_managed` entry point. */
export type EntrypointWrite = Extract<PhaseWrite<EntrypointRule>, { strategy: 'put' }>;

/** The PUT of the managed entry point with `rules`, keeping the live entry point's name and description. */
export function entrypointWrite(live: LiveZone, rules: EntrypointRule[]): EntrypointWrite {
  const current = live.entrypoint;
  return { phase: 'entrypoint', ruleset: ManagedPhase, strategy: 'put', body: { name: current?.name ?? 'default', ...(current?.description !== undefined ? { description: current.description } : {}), rules } };
}
