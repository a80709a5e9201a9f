/**
 * The previous WAF's per-zone tables: stored package attributes (`waf_packages`), group and rule
 * modes that differ from the defaults (`waf_groups`, `waf_rules`; setting a default value deletes
 * the row) and URI-based overrides (`waf_overrides`). `loadSettings` reads them all, with the zone
 * setting `waf`, into the plain `PreviousWafSettings` the migration and the trace work on.
 */
import { PreviousWafPackages, defaultRuleMode, findLegacyRule } from '../catalog/index.js';
import { loadWafState } from '../migration/store.js';
import type { Sql, SqlRow } from '../sql.js';
import type { ActionMode, PreviousWafSettings, Sensitivity, WafOverride } from './model.js';

/** DDL of the previous WAF tables (idempotent). */
export const previousWafSchema = [
  `CREATE TABLE IF NOT EXISTS waf_packages (
    package_id TEXT PRIMARY KEY,
    sensitivity TEXT,
    action_mode TEXT
  )`,
  `CREATE TABLE IF NOT EXISTS waf_groups (
    package_id TEXT NOT NULL,
    group_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    PRIMARY KEY (package_id, group_id)
  )`,
  `CREATE TABLE IF NOT EXISTS waf_rules (
    package_id TEXT NOT NULL,
    rule_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    PRIMARY KEY (package_id, rule_id)
  )`,
  `CREATE TABLE IF NOT EXISTS waf_overrides (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    description TEXT,
    urls TEXT NOT NULL,
    priority REAL NOT NULL,
    paused INTEGER NOT NULL,
    groups TEXT NOT NULL,
    rules TEXT NOT NULL,
    rewrite_action TEXT NOT NULL
  )`,
] as const;

/** Reads every previous WAF setting of the zone. */
export function loadSettings(sql: Sql): PreviousWafSettings {
  const packages = new Map<string, { sensitivity: Sensitivity | null; action_mode: ActionMode | null }>();
  for (const r of sql.exec('SELECT * FROM waf_packages').toArray()) {
    packages.set(r.package_id as string, { sensitivity: r.sensitivity as Sensitivity | null, action_mode: r.action_mode as ActionMode | null });
  }
  const groupModes = new Map<string, 'on' | 'off'>();
  for (const r of sql.exec('SELECT * FROM waf_groups').toArray()) groupModes.set(`${r.package_id}/${r.group_id}`, r.mode as 'on' | 'off');
  const ruleModes = new Map<string, string>();
  for (const r of sql.exec('SELECT * FROM waf_rules').toArray()) ruleModes.set(`${r.package_id}/${r.rule_id}`, r.mode as string);
  return { enabled: loadWafState(sql).previousWaf === 'on', packages, groupModes, ruleModes, overrides: listOverrides(sql) };
}

/** Stores an anomaly package's attributes (a field left undefined keeps its stored value). */
export function savePackage(sql: Sql, packageId: string, patch: { sensitivity?: Sensitivity; action_mode?: ActionMode }): void {
  sql.exec(
    `INSERT INTO waf_packages (package_id, sensitivity, action_mode) VALUES (?, ?, ?)
     ON CONFLICT (package_id) DO UPDATE SET sensitivity = coalesce(excluded.sensitivity, sensitivity), action_mode = coalesce(excluded.action_mode, action_mode)`,
    packageId, patch.sensitivity ?? null, patch.action_mode ?? null,
  );
}

/** Stores a group's mode (`on`, the default, deletes the row). */
export function saveGroupMode(sql: Sql, packageId: string, groupId: string, mode: 'on' | 'off'): void {
  if (mode === 'on') sql.exec('DELETE FROM waf_groups WHERE package_id = ? AND group_id = ?', packageId, groupId);
  else sql.exec('INSERT OR REPLACE INTO waf_groups (package_id, group_id, mode) VALUES (?, ?, ?)', packageId, groupId, mode);
}

/** Stores a rule's mode (its default mode deletes the row). */
export function saveRuleMode(sql: Sql, packageId: string, ruleId: string, mode: string): void {
  const pkg = PreviousWafPackages.find((p) => p.id === packageId)!;
  const located = findLegacyRule(pkg, ruleId)!;
  if (mode === defaultRuleMode(pkg, located.rule)) sql.exec('DELETE FROM waf_rules WHERE package_id = ? AND rule_id = ?', packageId, ruleId);
  else sql.exec('INSERT OR REPLACE INTO waf_rules (package_id, rule_id, mode) VALUES (?, ?, ?)', packageId, ruleId, mode);
}

function rowToOverride(r: SqlRow): WafOverride {
  return {
    id: r.id as string,
    description: r.description as string | null,
    urls: JSON.parse(r.urls as string) as string[],
    priority: r.priority as number,
    paused: r.paused === 1,
    groups: JSON.parse(r.groups as string) as Record<string, string>,
    rules: JSON.parse(r.rules as string) as Record<string, string>,
    rewrite_action: JSON.parse(r.rewrite_action as string) as Record<string, string>,
  };
}

/** Every URI-based override, in creation order. */
export function listOverrides(sql: Sql): WafOverride[] {
  return sql.exec('SELECT * FROM waf_overrides ORDER BY seq').toArray().map(rowToOverride);
}

/** The number of URI-based overrides (what blocks the migration). */
export function countOverrides(sql: Sql): number {
  return sql.exec<{ n: number }>('SELECT count(*) AS n FROM waf_overrides').one().n;
}

/** One override by id. */
export function getOverride(sql: Sql, id: string): WafOverride | undefined {
  const rows = sql.exec('SELECT * FROM waf_overrides WHERE id = ?', id).toArray();
  return rows.length > 0 ? rowToOverride(rows[0]!) : undefined;
}

/** Inserts or replaces an override (a replaced one keeps its place in the list). */
export function saveOverride(sql: Sql, o: WafOverride): void {
  const args = [o.description, JSON.stringify(o.urls), o.priority, o.paused ? 1 : 0, JSON.stringify(o.groups), JSON.stringify(o.rules), JSON.stringify(o.rewrite_action)];
  const updated = sql.exec(
    'UPDATE waf_overrides SET description = ?, urls = ?, priority = ?, paused = ?, groups = ?, rules = ?, rewrite_action = ? WHERE id = ?',
    ...args, o.id,
  ).rowsWritten;
  if (updated === 0) {
    sql.exec('INSERT INTO waf_overrides (description, urls, priority, paused, groups, rules, rewrite_action, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', ...args, o.id);
  }
}

/** Deletes an override; false when there was none. */
export function deleteOverride(sql: Sql, id: string): boolean {
  return sql.exec('DELETE FROM waf_overrides WHERE id = ?', id).rowsWritten > 0;
}
