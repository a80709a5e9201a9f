/**
 * A zone object's tables at start: the resource modules' DDL (`CREATE ... IF NOT EXISTS`, see
 * `resources.ts`) runs only when some object it names is missing. Every start of a zone object
 * (each zone a plan reads) used to run all of them in a transaction; when every name exists, each
 * statement would do nothing, so one look at `sqlite_master` replaces them, and the empty
 * transaction (and its commit) goes too. A statement that is not a single `IF NOT EXISTS` create
 * makes every start run them all, as before.
 */
import type { Sql } from './sql.js';

const IfNotExists = /^\s*CREATE\s+(?:UNIQUE\s+)?(TABLE|INDEX|VIEW|TRIGGER)\s+IF\s+NOT\s+EXISTS\s+"?(\w+)"?[\s(]/i;

/** The `type:name` each statement creates, or null when one is not a single `IF NOT EXISTS` create. */
export function createdObjects(ddl: readonly string[]): string[] | null {
  const names: string[] = [];
  for (const statement of ddl) {
    const m = IfNotExists.exec(statement);
    if (m === null || statement.trim().replace(/;$/, '').includes(';')) return null;
    names.push(`${m[1]!.toLowerCase()}:${m[2]}`);
  }
  return names;
}

/** True when every object in `names` (from `createdObjects`) exists. */
export function schemaPresent(sql: Sql, names: readonly string[]): boolean {
  const present = new Set<string>();
  for (const row of sql.exec("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index', 'view', 'trigger')")) {
    present.add(`${String(row.type)}:${String(row.name)}`);
  }
  return names.every((n) => present.has(n));
}
