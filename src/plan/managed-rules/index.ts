/**
 * The managed rules kind: the rules of the `http_request_firewall_managed` entry point
 * (`managed_rules`: managed ruleset deployments with their overrides). Its changes carry no writes
 * of their own: one PUT of the whole entry point carries them all.
 */
import type { PlanKind } from '../kind.js';
import { stableStringify } from '../stable-json.js';
import type { Write } from '../write.js';
import { ManagedPhase } from '../../api/index.js';
import { diffManaged } from './diff.js';
import { exportManagedRules } from './export.js';
import { deltaLabel, overrideDeltas } from './overrides-text.js';
import { managedChangeFindings } from './safety.js';
import { newExceptionFindings } from './exception-safety.js';
import { entrypointWrite } from './writes.js';

declare module '../phase.js' {
  interface PhaseRegistry {
    entrypoint: true;
  }
}

declare module '../change.js' {
  interface ResourceKindRegistry {
    managed_ruleset: true;
    managed_exception: true;
  }
}

/** Managed ruleset deployments. */
export const managedRules: PlanKind = {
  name: 'managed-rules',
  resources: {
    managed_ruleset: { kept: 'entrypoint', deleted: 'entrypoint', ordered: true, counted: true, carried: true },
    managed_exception: { kept: 'entrypoint', deleted: 'entrypoint', ordered: true, counted: true, carried: true },
  },
  phases: [{ name: 'entrypoint', requests: 'per-object' }],
  ops: [],
  phaseOf(write: Write) { throw new Error(`managed rules: write ${write.op} is not theirs (the entry point PUT carries their changes)`); },
  reads: (desired) => (desired.managedRules !== undefined ? ['entrypoint'] : []),
  readRequests: (_live, _perPage, read) => (read('entrypoint') ? 1 : 0),
  diff({ desired, live, canon, prune }) {
    const d = diffManaged(desired, live, canon, prune);
    return { changes: d.changes, findings: d.findings, unmanaged: d.unmanaged, ...(d.rules !== null ? { phaseWrite: entrypointWrite(live, d.rules) } : {}) };
  },
  changeFindings: managedChangeFindings,
  planFindings: (changes) => newExceptionFindings(changes),
  // One line per override, not two JSON blobs.
  attributeDeltas: (name, before, after) => (name === 'overrides' ? overrideDeltas(before, after).map((d) => ({ label: deltaLabel(d), before: d.before, after: d.after })) : undefined),
  export(live, { canon }) {
    const e = exportManagedRules(live.entrypoint, canon);
    if (e === undefined) return { sections: {} };
    const phaseWrites = e.adoption !== null ? [{ phase: 'entrypoint' as const, ruleset: ManagedPhase as typeof ManagedPhase, strategy: 'put' as const, body: e.adoption }] : [];
    return { sections: { managed_rules: e.items }, adopted: e.objects, skipped: e.skipped, adoption: { phaseWrites } };
  },
  fingerprint(live, put) {
    const e = live.entrypoint;
    put('e', e === null ? null : [e.id, e.version, e.last_updated ?? '', e.name, e.description ?? '', stableStringify(e.rules)]);
  },
};
