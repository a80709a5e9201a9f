/**
 * The SQL cursors of a connection that still hold a running statement. Cursors step their
 * statement lazily (`cursor.ts`), and SQLite refuses a few things while a statement runs on the
 * connection: a WAL checkpoint and DROP TABLE fail with SQLITE_LOCKED, and better-sqlite3 will not
 * close the connection. Before those, the storage layer parks every open cursor: its remaining rows
 * are read into memory and its statement reset, so the cursor goes on from its buffer. `deleteAll()`
 * cancels them instead, as the reference does: the data they would read is gone.
 */
import type Database from 'better-sqlite3';

/** A cursor that can give up its statement. */
export interface Parkable {
  /** Reads the remaining rows into memory and resets the statement. */
  park(): void;
  /** Ends the cursor: its statement is reset and every later read throws `err`. */
  cancel(err: Error): void;
}

const openByDb = new WeakMap<Database.Database, Set<Parkable>>();

/**
 * Cursors left running at once on one connection. A cursor dropped unfinished would otherwise hold
 * its statement (and a read snapshot) for good; past this many, the oldest is parked. Cheaper than a
 * FinalizationRegistry entry per `exec()`, and a parked cursor still reads on from its buffer.
 */
const MAX_RUNNING = 64;

/** Records `cursor` as running on its connection (`set` from `openCursors`), parking the oldest past the cap. */
export function addOpenCursor(set: Set<Parkable>, cursor: Parkable): void {
  set.add(cursor);
  if (set.size <= MAX_RUNNING) return;
  for (const oldest of set) {
    oldest.park();
    break;
  }
}

/** The open cursors of `db` (a live set: cursors add and remove themselves). */
export function openCursors(db: Database.Database): Set<Parkable> {
  let set = openByDb.get(db);
  if (!set) {
    set = new Set();
    openByDb.set(db, set);
  }
  return set;
}

/** Parks every open cursor of `db`, so checkpoints, drops and close can run. */
export function parkCursors(db: Database.Database): void {
  const set = openByDb.get(db);
  if (!set) return;
  for (const cursor of [...set]) cursor.park();
}

/** Cancels every open cursor of `db`: their statements are reset and their reads throw `err`. */
export function cancelCursors(db: Database.Database, err: Error): void {
  const set = openByDb.get(db);
  if (!set) return;
  for (const cursor of [...set]) cursor.cancel(err);
}
