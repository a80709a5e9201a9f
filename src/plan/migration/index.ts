/**
 * The WAF migration kind (`waf_migration`): moves a zone from the previous WAF to managed rulesets
 * (`none` → `validation` → `pending`). A step forward is a PUT of the managed entry point with the
 * step's flag, so its write replaces the managed rules' PUT: the body `zonewall migrate` sends.
 */
import type { PlanKind } from '../kind.js';
import { stableStringify } from '../stable-json.js';
import type { Write } from '../write.js';
import { diffMigration } from './diff.js';
import { exportWafMigration } from './export.js';
import { migrationChangeFindings } from './safety.js';

declare module '../change.js' {
  interface ResourceKindRegistry {
    waf_migration: true;
  }
}

/** The WAF migration's state. */
export const migration: PlanKind = {
  name: 'migration',
  resources: { waf_migration: { kept: 'entrypoint', deleted: 'entrypoint', ordered: true, carried: true, irreversible: true } },
  phases: [],
  ops: [],
  phaseOf(write: Write) { throw new Error(`migration: write ${write.op} is not its (the entry point PUT carries the step)`); },
  reads(desired) {
    const want = desired.wafMigration;
    if (want === undefined) return [];
    // The status, the entry point (re-sent by the step), the previous WAF's URI overrides (they block
    // the migration); a step forward PUTs the service's proposed configuration (skip rules included).
    return ['migration', 'entrypoint', 'previous_waf', ...(want === 'validation' || want === 'pending' ? ['migration_config' as const] : [])];
  },
  readRequests(live, _perPage, read) {
    // The proposal is read only when named, and only while the zone has not finished migrating.
    const config = live.sections?.includes('migration_config') === true && live.migration !== null && live.migration.waf_state !== 'new_only';
    return (read('migration') ? 1 : 0) + (config ? 1 : 0);
  },
  diff({ desired, live, providerFlags }) {
    const d = diffMigration(desired, live, providerFlags);
    return { changes: d.change !== null ? [d.change] : [], findings: d.findings, ...(d.write !== undefined ? { phaseWrite: d.write } : {}) };
  },
  changeFindings: migrationChangeFindings,
  // After the managed rules' export: `validation` only with a `managed_rules` section to validate.
  export(live, { document }) {
    const state = exportWafMigration(live, document.managed_rules !== undefined);
    return { sections: state !== undefined ? { waf_migration: state } : {} };
  },
  fingerprint(live, put) {
    // The whole status: `old_waf_status` is the previous WAF's on/off switch.
    put('m', live.migration === null ? null : stableStringify(live.migration));
    if (live.migrationConfig !== undefined) put('mc', live.migrationConfig === null ? null : stableStringify(live.migrationConfig));
  },
};
