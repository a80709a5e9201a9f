/**
 * `waf_migration`: where the manifest wants the zone on the seed's migration path (`none` = previous
 * WAF only, `validation` = both, `pending` = new WAF only) against the zone's `waf_state`. Moving
 * forward is carried by the entry point PUT (`waf_migration=validation|pending`); moving back is
 * impossible (the migration is irreversible), so asking for an earlier state is a warning, not a
 * perpetual diff.
 */
import type { DesiredWafMigration, DesiredZone } from '../manifest/index.js';
import { noOpChange, type Change } from './change.js';
import { finding, type Finding } from './finding.js';
import type { LiveZone, WafState } from './live.js';

const stateOf: Record<DesiredWafMigration, WafState> = { none: 'previous_only', validation: 'both', pending: 'new_only' };
const rank: Record<WafState, number> = { previous_only: 0, both: 1, new_only: 2 };

/** What the migration diff found. */
export interface MigrationDiff {
  change: Change | null;
  findings: Finding[];
  /** The mode the entry point PUT carries, when the migration moves on. */
  wafMigration?: 'validation' | 'pending';
}

/** The migration change of a zone, if the manifest asks for one. */
export function diffMigration(desired: DesiredZone, live: LiveZone): MigrationDiff {
  const want = desired.wafMigration;
  const location = desired.locations.waf_migration;
  const about = { kind: 'waf_migration' as const, ref: 'waf_migration', ...(location ? { location } : {}) };
  if (want === undefined) return { change: null, findings: [] };
  if (live.migration === null) {
    return { change: null, findings: [finding('migration-unavailable', 'the service does not report the zone\'s WAF migration state; `waf_migration` is ignored', about)] };
  }
  const from = live.migration.waf_state;
  const to = stateOf[want];
  const base = { kind: 'waf_migration' as const, ref: 'waf_migration', before: { state: from }, after: { state: to } };
  if (rank[to] === rank[from]) return { change: noOpChange('waf_migration', 'waf_migration', undefined), findings: [] };
  if (rank[to] < rank[from]) {
    return { change: null, findings: [finding('migration-irreversible',
      `the manifest asks for waf_migration "${want}" but the zone is already at "${from}"; the migration cannot go back: set waf_migration to "${from === 'new_only' ? 'pending' : 'validation'}"`, about)] };
  }
  const findings: Finding[] = [];
  // `validation` on a non-Enterprise zone is reported by the tier check (`tier.ts`).
  const overrides = live.previousWaf?.overrides ?? [];
  if (overrides.length > 0) {
    findings.push(finding('migration-blocked',
      `the zone has ${overrides.length} URI-based WAF override(s) (${overrides.map((o) => o.id).join(', ')}); a zone cannot migrate until they are deleted`, about));
  }
  const mode = want === 'validation' ? 'validation' : 'pending';
  return { change: { ...base, action: 'update', reason: 'migration', changed: ['state'], writes: [] }, findings, wafMigration: mode };
}
