/**
 * How every session's SQLite file is opened (`open.ts` opens it, `session.ts` runs on it): WAL,
 * durable commits, foreign keys, manual checkpoints when PITR copies the WAL, and better-sqlite3's
 * unsafe mode, which lets SQL cursors step between other statements.
 */
import Database from 'better-sqlite3';

/** Opens a SQLite file the way every session needs it: WAL, durable commits, foreign keys. */
export function openDatabase(file: string, manualCheckpoints: boolean): Database.Database {
  const db = new Database(file);
  // One exec for all of them (each db.pragma() prepares a statement of its own; a plan opens a file
  // per zone). FULL: a COMMIT returns only after the WAL is fsynced, so SIGKILL never loses a
  // confirmed batch. wal_autocheckpoint = 0: PITR copies each commit's pages out of the WAL before
  // any checkpoint may overwrite them.
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;' +
      (manualCheckpoints ? ' PRAGMA wal_autocheckpoint = 0;' : ''),
  );
  // SQL cursors step lazily and other statements run between their steps, as SQLite allows and the
  // reference does; better-sqlite3 refuses that outside unsafe mode (see cursor.ts).
  db.unsafeMode(true);
  return db;
}
