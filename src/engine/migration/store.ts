/**
 * A zone's WAF state in SQL (`waf_state`, one row): which WAF versions run (`previous_only`, `both`,
 * `new_only`), the zone setting `waf` (the previous WAF's on/off switch), and when and how the
 * migration started. The row is written when the zone is created (`onCreate`: `waf: 'new'` makes an
 * already-migrated zone); a zone whose row is missing (created before this module existed) reads as
 * a new zone at the defaults: previous only, previous WAF on.
 */
import type { Sql } from '../sql.js';
import type { WafState } from './state-machine.js';

/** DDL of the WAF state table (idempotent). */
export const wafStateSchema = [
  `CREATE TABLE IF NOT EXISTS waf_state (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    state TEXT NOT NULL,
    previous_waf TEXT NOT NULL,
    setting_modified_on TEXT,
    migration_created TEXT,
    migration_source TEXT,
    migration_modified_on TEXT
  )`,
] as const;

/** The zone's WAF state row. */
export interface WafStateRecord {
  state: WafState;
  /** The zone setting `waf`. */
  previousWaf: 'on' | 'off';
  settingModifiedOn: string | null;
  /** When the migration began (first PUT with `waf_migration`), or the zone's creation for `waf: 'new'`. */
  migrationCreated: string | null;
  /** `api` (migrated through the migration API) or `zone_creation` (created with `waf: 'new'`). */
  migrationSource: 'api' | 'zone_creation' | null;
  migrationModifiedOn: string | null;
}

const defaults: WafStateRecord = {
  state: 'previous_only', previousWaf: 'on', settingModifiedOn: null, migrationCreated: null, migrationSource: null, migrationModifiedOn: null,
};

/** Reads the zone's WAF state (defaults when the row is missing). */
export function loadWafState(sql: Sql): WafStateRecord {
  const rows = sql.exec('SELECT * FROM waf_state').toArray();
  if (rows.length === 0) return { ...defaults };
  const r = rows[0]!;
  return {
    state: r.state as WafState,
    previousWaf: r.previous_waf as 'on' | 'off',
    settingModifiedOn: r.setting_modified_on as string | null,
    migrationCreated: r.migration_created as string | null,
    migrationSource: r.migration_source as WafStateRecord['migrationSource'],
    migrationModifiedOn: r.migration_modified_on as string | null,
  };
}

/** Writes the zone's WAF state. */
export function saveWafState(sql: Sql, s: WafStateRecord): void {
  sql.exec(
    `INSERT OR REPLACE INTO waf_state (singleton, state, previous_waf, setting_modified_on, migration_created, migration_source, migration_modified_on)
     VALUES (1, ?, ?, ?, ?, ?, ?)`,
    s.state, s.previousWaf, s.settingModifiedOn, s.migrationCreated, s.migrationSource, s.migrationModifiedOn,
  );
}

/** The initial state of a new zone: `waf: 'new'` = already migrated, otherwise previous only. */
export function initialWafState(waf: 'previous' | 'new' | undefined, now: string): WafStateRecord {
  if (waf === 'new') {
    return { ...defaults, state: 'new_only', previousWaf: 'off', migrationCreated: now, migrationSource: 'zone_creation', migrationModifiedOn: now };
  }
  return { ...defaults };
}

/** Moves the zone to `next` after a PUT with `waf_migration` (records when the migration began). */
export function recordTransition(sql: Sql, current: WafStateRecord, next: WafState, now: string): WafStateRecord {
  if (next === current.state) return current;
  const updated: WafStateRecord = {
    ...current,
    state: next,
    migrationCreated: current.migrationCreated ?? now,
    migrationSource: current.migrationSource ?? 'api',
    migrationModifiedOn: now,
  };
  saveWafState(sql, updated);
  return updated;
}
