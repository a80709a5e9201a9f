/**
 * A zone's data as plain rows, table by table: what moves a zone from the built-in host to the
 * workerd runtime (`serve --runtime workerd` imports the zones of its state directory). Both sides
 * run the same resource modules, so the same tables exist on both; a dump carries the rows only.
 * Tables are listed in creation order (`sqlite_master`), so rows that reference earlier tables load
 * after them. Reserved tables (`_zw_*`, `_cf_*`, `sqlite_*`) are not zone data.
 */
import type { Sql, SqlValue } from './sql.js';

/** The rows of every zone table, in creation order. */
export type ZoneDump = { table: string; rows: Record<string, SqlValue>[] }[];

const Tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid";

/** Every row of every zone table. */
export function dumpZone(sql: Sql): ZoneDump {
  const tables = sql.exec<{ name: string }>(Tables).toArray().map((t) => t.name);
  return tables.map((table) => ({ table, rows: sql.exec<Record<string, SqlValue>>(`SELECT * FROM ${quote(table)}`).toArray() }));
}

/** Replaces the rows of the dump's tables with the dump's (inside the caller's transaction). */
export function loadZone(sql: Sql, dump: ZoneDump): void {
  for (const { table } of [...dump].reverse()) sql.exec(`DELETE FROM ${quote(table)}`);
  for (const { table, rows } of dump) {
    for (const row of rows) {
      const columns = Object.keys(row);
      sql.exec(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, ...columns.map((c) => row[c]));
    }
  }
}

function quote(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`zone dump: bad table or column name ${JSON.stringify(name)}`);
  return `"${name}"`;
}
