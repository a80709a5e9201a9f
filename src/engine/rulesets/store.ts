/**
 * The zone's phase entry points in SQL, one set of three tables per served phase: one row for the
 * ruleset (`<prefix>_entrypoint`), its rules in order (`<prefix>_rules`), and a snapshot of every
 * version (`<prefix>_versions`) for the versions operations. Parameters and logging are stored as
 * JSON (`null` when a rule has no parameters). The managed phase keeps its original table names
 * (`rulesets_*`), so state directories written before the custom phase still open.
 */
import { CustomPhase, ManagedPhase, type ServedPhase } from '../../api/index.js';
import type { Sql, SqlRow } from '../sql.js';
import type { Entrypoint, StoredRule, StoredRuleset } from './types.js';

/** Table name prefix of each served phase. */
const Prefixes: Record<ServedPhase, string> = { [ManagedPhase]: 'rulesets', [CustomPhase]: 'custom_rulesets' };

function tablesDdl(prefix: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${prefix}_entrypoint (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
      id TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT NOT NULL,
      version INTEGER NOT NULL,
      last_updated TEXT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS ${prefix}_rules (
      position INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      ref TEXT NOT NULL,
      version TEXT NOT NULL,
      action TEXT NOT NULL,
      expression TEXT NOT NULL,
      description TEXT NOT NULL,
      enabled INTEGER NOT NULL,
      action_parameters TEXT NOT NULL,
      logging TEXT,
      last_updated TEXT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS ${prefix}_versions (
      version INTEGER PRIMARY KEY,
      snapshot TEXT NOT NULL
    )`,
  ];
}

/** The phase of each served phase's rules table (`<prefix>_rules`): where stored expressions live. */
export function rulesTables(): { table: string; phase: ServedPhase }[] {
  return (Object.entries(Prefixes) as [ServedPhase, string][]).map(([phase, prefix]) => ({ table: `${prefix}_rules`, phase }));
}

/** DDL of every served phase's tables (idempotent). */
export const rulesetsSchema: readonly string[] = Object.values(Prefixes).flatMap(tablesDdl);

function rowToRule(row: SqlRow): StoredRule {
  const rule: StoredRule = {
    id: row.id as string,
    ref: row.ref as string,
    version: row.version as string,
    action: row.action as string,
    expression: row.expression as string,
    description: row.description as string,
    enabled: row.enabled === 1,
    last_updated: row.last_updated as string,
  };
  const params = JSON.parse(row.action_parameters as string) as unknown;
  if (params !== null) rule.action_parameters = params;
  if (row.logging !== null) rule.logging = JSON.parse(row.logging as string) as { enabled: boolean };
  return rule;
}

/** The stored managed entry point, or undefined when the zone has none. */
export function loadEntrypoint(sql: Sql): Entrypoint | undefined {
  return loadRuleset(sql, ManagedPhase) as Entrypoint | undefined;
}

/** The stored entry point of `phase`, or undefined when the zone has none. */
export function loadRuleset(sql: Sql, phase: ServedPhase): StoredRuleset | undefined {
  const p = Prefixes[phase];
  const rows = sql.exec(`SELECT id, name, description, version, last_updated FROM ${p}_entrypoint`).toArray();
  if (rows.length === 0) return undefined;
  const head = rows[0]!;
  const rules = sql.exec(`SELECT * FROM ${p}_rules ORDER BY position`).toArray().map(rowToRule);
  return {
    id: head.id as string,
    name: head.name as string,
    description: head.description as string,
    version: String(head.version),
    last_updated: head.last_updated as string,
    rules,
  };
}

/** Replaces the stored entry point of `phase` and records its version's snapshot. */
export function saveRuleset(sql: Sql, phase: ServedPhase, entry: StoredRuleset): void {
  const p = Prefixes[phase];
  sql.exec(
    `INSERT INTO ${p}_entrypoint (singleton, id, name, description, version, last_updated) VALUES (1, ?, ?, ?, ?, ?)
     ON CONFLICT (singleton) DO UPDATE SET id = excluded.id, name = excluded.name, description = excluded.description,
       version = excluded.version, last_updated = excluded.last_updated`,
    entry.id, entry.name, entry.description, Number(entry.version), entry.last_updated,
  );
  sql.exec(`DELETE FROM ${p}_rules`);
  entry.rules.forEach((r, i) => {
    sql.exec(
      `INSERT INTO ${p}_rules (position, id, ref, version, action, expression, description, enabled, action_parameters, logging, last_updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      i, r.id, r.ref, r.version, r.action, r.expression, r.description, r.enabled ? 1 : 0,
      JSON.stringify(r.action_parameters ?? null), r.logging === undefined ? null : JSON.stringify(r.logging), r.last_updated,
    );
  });
  sql.exec(`INSERT OR REPLACE INTO ${p}_versions (version, snapshot) VALUES (?, ?)`, Number(entry.version), JSON.stringify(entry));
}

/** Replaces the stored managed entry point. */
export function saveEntrypoint(sql: Sql, entry: Entrypoint): void {
  saveRuleset(sql, ManagedPhase, entry);
}

/** Deletes the entry point of `phase` with its rules and versions (a later one starts at version 1). */
export function deleteRuleset(sql: Sql, phase: ServedPhase): void {
  const p = Prefixes[phase];
  for (const table of ['entrypoint', 'rules', 'versions']) sql.exec(`DELETE FROM ${p}_${table}`);
}

/** The versions of the entry point of `phase`, newest first. */
export function listVersions(sql: Sql, phase: ServedPhase = ManagedPhase): StoredRuleset[] {
  return sql.exec<{ snapshot: string }>(`SELECT snapshot FROM ${Prefixes[phase]}_versions ORDER BY version DESC`).toArray()
    .map((r) => JSON.parse(r.snapshot) as StoredRuleset);
}

/**
 * Deletes one stored version of `phase` (never the latest: the handler refuses it). Numbers are not
 * reused, since the next version is always the entry point's (the latest) + 1.
 */
export function deleteVersion(sql: Sql, phase: ServedPhase, version: number): void {
  sql.exec(`DELETE FROM ${Prefixes[phase]}_versions WHERE version = ?`, version);
}

/** One version of the entry point of `phase`, or undefined. */
export function getVersion(sql: Sql, version: number, phase: ServedPhase = ManagedPhase): StoredRuleset | undefined {
  const rows = sql.exec<{ snapshot: string }>(`SELECT snapshot FROM ${Prefixes[phase]}_versions WHERE version = ?`, version).toArray();
  return rows.length > 0 ? (JSON.parse(rows[0]!.snapshot) as StoredRuleset) : undefined;
}
