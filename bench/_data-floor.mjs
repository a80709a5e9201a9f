// The data floor of a plan on the embedded engine: open every SQLite file of a state directory
// read-only and read every row of every table. No zonewall code: what any plan must at least do.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

function* sqliteFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sqliteFiles(p);
    else if (name.endsWith('.sqlite')) yield p;
  }
}
let rows = 0;
for (const file of sqliteFiles(process.argv[2])) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()) {
    for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).iterate()) rows += row ? 1 : 0;
  }
  db.close();
}
process.stdout.write(`${rows}\n`);
