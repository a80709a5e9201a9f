/**
 * The zone's `http_request_firewall_managed` entry point in SQL: one row for the ruleset
 * (`rulesets_entrypoint`), its rules in order (`rulesets_rules`), and a snapshot of every version
 * (`rulesets_versions`) for the versions operations. Parameters and logging are stored as JSON.
 */
import type { Sql, SqlRow } from '../sql.js';
import type { Entrypoint, EntrypointRule } from './types.js';

/** DDL of the entry point tables (idempotent). */
export const rulesetsSchema = [
  `CREATE TABLE IF NOT EXISTS rulesets_entrypoint (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    version INTEGER NOT NULL,
    last_updated TEXT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS rulesets_rules (
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
  `CREATE TABLE IF NOT EXISTS rulesets_versions (
    version INTEGER PRIMARY KEY,
    snapshot TEXT NOT NULL
  )`,
] as const;

function rowToRule(row: SqlRow): EntrypointRule {
  const rule: EntrypointRule = {
    id: row.id as string,
    ref: row.ref as string,
    version: row.version as string,
    action: row.action as EntrypointRule['action'],
    expression: row.expression as string,
    description: row.description as string,
    enabled: row.enabled === 1,
    action_parameters: JSON.parse(row.action_parameters as string) as EntrypointRule['action_parameters'],
    last_updated: row.last_updated as string,
  };
  if (row.logging !== null) rule.logging = JSON.parse(row.logging as string) as { enabled: boolean };
  return rule;
}

/** The stored entry point, or undefined when the zone has none. */
export function loadEntrypoint(sql: Sql): Entrypoint | undefined {
  const rows = sql.exec('SELECT id, name, description, version, last_updated FROM rulesets_entrypoint').toArray();
  if (rows.length === 0) return undefined;
  const head = rows[0]!;
  const rules = sql.exec('SELECT * FROM rulesets_rules ORDER BY position').toArray().map(rowToRule);
  return {
    id: head.id as string,
    name: head.name as string,
    description: head.description as string,
    version: String(head.version),
    last_updated: head.last_updated as string,
    rules,
  };
}

/** Replaces the stored entry point and records its version's snapshot. */
export function saveEntrypoint(sql: Sql, entry: Entrypoint): void {
  sql.exec(
    `INSERT INTO rulesets_entrypoint (singleton, id, name, description, version, last_updated) VALUES (1, ?, ?, ?, ?, ?)
     ON CONFLICT (singleton) DO UPDATE SET id = excluded.id, name = excluded.name, description = excluded.description,
       version = excluded.version, last_updated = excluded.last_updated`,
    entry.id, entry.name, entry.description, Number(entry.version), entry.last_updated,
  );
  sql.exec('DELETE FROM rulesets_rules');
  entry.rules.forEach((r, i) => {
    sql.exec(
      `INSERT INTO rulesets_rules (position, id, ref, version, action, expression, description, enabled, action_parameters, logging, last_updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      i, r.id, r.ref, r.version, r.action, r.expression, r.description, r.enabled ? 1 : 0,
      JSON.stringify(r.action_parameters), r.logging === undefined ? null : JSON.stringify(r.logging), r.last_updated,
    );
  });
  sql.exec('INSERT OR REPLACE INTO rulesets_versions (version, snapshot) VALUES (?, ?)', Number(entry.version), JSON.stringify(entry));
}

/** The versions of the entry point, newest first (each without its rules). */
export function listVersions(sql: Sql): Entrypoint[] {
  return sql.exec<{ snapshot: string }>('SELECT snapshot FROM rulesets_versions ORDER BY version DESC').toArray()
    .map((r) => JSON.parse(r.snapshot) as Entrypoint);
}

/** One version of the entry point, or undefined. */
export function getVersion(sql: Sql, version: number): Entrypoint | undefined {
  const rows = sql.exec<{ snapshot: string }>('SELECT snapshot FROM rulesets_versions WHERE version = ?', version).toArray();
  return rows.length > 0 ? (JSON.parse(rows[0]!.snapshot) as Entrypoint) : undefined;
}
