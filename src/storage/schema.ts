/**
 * The user's part of an object's SQL schema, for `deleteAll()` on the SQLite backend: every table,
 * view and trigger whose name is not reserved (`_zw_*` hidden tables, `sqlite_*` internals) is
 * dropped inside the current transaction, so the reset is atomic with the writes around it.
 */
import type Database from 'better-sqlite3';

interface SchemaObject {
  type: string;
  name: string;
  sql: string | null;
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Drops every user table, view and trigger in the current transaction. */
export function dropUserSchema(db: Database.Database): void {
  // Tables are dropped in any order; deferring foreign keys keeps a parent drop from failing.
  db.pragma('defer_foreign_keys = ON');
  const objects = db
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') " +
        "AND name NOT LIKE '\\_zw\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    )
    .all() as SchemaObject[];
  const rank = (o: SchemaObject): number =>
    o.type === 'trigger' ? 0 : o.type === 'view' ? 1 : /^CREATE\s+VIRTUAL/i.test(o.sql ?? '') ? 2 : 3;
  objects.sort((a, b) => rank(a) - rank(b));
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?');
  for (const object of objects) {
    // A virtual table's shadow tables go with it; skip what an earlier drop removed.
    if (exists.get(object.type, object.name) === undefined) continue;
    db.prepare(`DROP ${object.type.toUpperCase()} ${quote(object.name)}`).run();
  }
}
