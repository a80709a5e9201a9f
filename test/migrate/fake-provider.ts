/**
 * An in-memory Provider for the migration's orchestration tests: one zone, a previous WAF, an entry
 * point and the seed's state machine, with every migration call recorded. The end-to-end tests
 * run the same sequence against the real engine; this one pins down the sequence's own decisions.
 */
import type {
  EntrypointBody, LiveEntrypoint, LiveMigrationStatus, LiveZone, LiveZoneInfo, WafState,
} from '../../src/plan/index.js';
import type { MigrationCheck, Provider } from '../../src/providers/index.js';

/** A recorded call. */
export interface Call { op: string; body?: EntrypointBody; mode?: string; id?: string }

/** The fake's starting point. */
export interface FakeZone {
  zone: LiveZoneInfo;
  live: Omit<LiveZone, 'zone' | 'migration'>;
  state: WafState;
  proposal: EntrypointBody;
  reasons?: string[];
}

/** Assigns ids and refs as the service does (ref defaults to the id). */
function stored(body: EntrypointBody, version: number): LiveEntrypoint {
  return {
    id: 'e'.repeat(32), name: body.name ?? 'default', kind: 'zone', phase: 'http_request_firewall_managed', version: String(version),
    rules: body.rules.map((r, i) => {
      const id = r.id !== undefined && r.id !== '' ? r.id : `${i}`.padStart(32, 'a');
      return { ...r, id, version: '1', ref: r.ref !== undefined && r.ref !== '' ? r.ref : id };
    }),
  };
}

/** Builds the fake provider. */
export function fakeProvider(start: FakeZone): Provider & { calls: Call[]; state: () => WafState } {
  let state = start.state;
  let entrypoint = start.live.entrypoint;
  let overrides = start.live.previousWaf?.overrides ?? [];
  const calls: Call[] = [];
  const status = (): LiveMigrationStatus => ({
    migration_state: state === 'previous_only' ? 'start' : state === 'both' ? 'validation' : 'completed',
    old_waf_status: state === 'new_only' ? 'disabled' : 'enabled',
    new_waf_status: state === 'previous_only' ? 'disabled' : 'enabled',
    waf_state: state,
  });
  const fail = (): never => { throw new Error('not used by the migration'); };
  return {
    kind: 'engine', description: 'fake', target: 'fake', stats: { requests: 0 }, calls, state: () => state,
    async resolveZone(name) {
      if (name !== start.zone.name && name !== start.zone.id) throw new Error(`no zone ${name}`);
      return { zone: start.zone, missing: false };
    },
    async readZone() {
      const previousWaf = state === 'new_only' || start.live.previousWaf === null ? null : { ...start.live.previousWaf, overrides };
      return { ...start.live, zone: start.zone, entrypoint, previousWaf, migration: status() };
    },
    async checkMigration(): Promise<MigrationCheck> {
      calls.push({ op: 'check' });
      const reasons = overrides.length > 0 ? [`the zone has ${overrides.length} URI-based WAF override(s)`] : start.reasons ?? [];
      return { compatible: reasons.length === 0 && state !== 'new_only', migration_state: status().migration_state, reasons };
    },
    async migrationConfig() { calls.push({ op: 'config' }); return structuredClone(start.proposal); },
    async migrationStatus() { return status(); },
    async putPhase<R>(_zoneId: string, phase: string, body: EntrypointBody, options?: { step?: 'validation' | 'pending' }): Promise<R> {
      if (phase !== 'http_request_firewall_managed') throw new Error(`fake provider: no ${phase} phase`);
      calls.push({ op: 'put', body: structuredClone(body), mode: options?.step });
      if (options?.step === 'validation') {
        if (start.zone.plan !== 'enterprise') throw new Error('validation is Enterprise only');
        state = 'both';
      } else if (options?.step === 'pending') {
        state = 'new_only';
      }
      entrypoint = stored(body, Number(entrypoint?.version ?? 0) + 1);
      return entrypoint as R;
    },
    async deleteWafOverride(_zoneId, id) { calls.push({ op: 'delete-override', id }); overrides = overrides.filter((o) => o.id !== id); },
    createFilters: fail, updateFilters: fail, deleteFilters: fail,
    createFirewallRules: fail, updateFirewallRules: fail, deleteFirewallRules: fail,
    patchWafPackage: fail, patchWafGroup: fail, patchWafRule: fail, createPageRule: fail, updatePageRule: fail, deletePageRule: fail,
    createPhaseRule: fail, updatePhaseRule: fail, deletePhaseRule: fail,
    resolveAccount: fail, listLists: fail, listItems: fail, createList: fail, updateList: fail, deleteList: fail,
    addListItems: fail, replaceListItems: fail, deleteListItems: fail, getListOperation: fail, waitForListOperation: fail,
    async close() {},
  };
}
