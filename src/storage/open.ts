/**
 * Opens the storage of one object for one session: its SQLite file under `<dir>/objects/`, named by
 * the sha256 of the object name (safe for any name), and the parts that work on it (key-value table,
 * alarm row, SQL API, PITR). On the SQLite backend the PITR log is brought up to date and a pending
 * restore is applied before SQLite opens the file (`pitr.ts`).
 */
import { join } from 'node:path';
import { AlarmStore } from './alarm-store.js';
import type { HostConfig } from './host.js';
import { KvStore } from './kv.js';
import { markGap, openPitr, PitrService, type PitrApi, type PitrParts } from './pitr.js';
import { openDatabase, StorageSession, type SessionHooks } from './session.js';
import { SqlStorage } from './sql.js';
import type { ObjectId } from './state.js';

/** Everything one session of one object works with. */
export interface SessionParts {
  session: StorageSession;
  kv: KvStore;
  alarms: AlarmStore;
  sql: SqlStorage;
  pitr: PitrApi | null;
  /** Commits pending writes and closes the session. */
  close(): void;
}

/** Directory of the object files of a namespace directory. */
export function objectsDir(dir: string): string {
  return join(dir, 'objects');
}

function sessionHooks(pitr: PitrParts | null, hooks: SessionHooks, session: () => StorageSession): SessionHooks {
  if (pitr === null) return hooks;
  return {
    ...hooks,
    afterCommit: () => {
      try {
        pitr.recorder.afterCommit();
      } catch (err) {
        // The commit is durable but the log missed it: restart the log at the next open.
        markGap(pitr.dir);
        session().fail(err, 'the point-in-time recovery log could not be written');
      }
      hooks.afterCommit?.();
    },
    beforeClose: () => {
      try {
        pitr.recorder.close();
      } catch {
        markGap(pitr.dir);
      }
      pitr.log.close();
    },
  };
}

/** Opens one object's storage for a new session. */
export function openSessionParts(id: ObjectId, cfg: HostConfig, hooks: SessionHooks): SessionParts {
  const base = join(objectsDir(cfg.dir), id.toString());
  const file = `${base}.sqlite`;
  const sqlite = cfg.backend === 'sqlite';
  const pitr = sqlite ? openPitr(`${base}.pitr`, file, cfg.now) : null;
  const db = openDatabase(file, sqlite);
  let session: StorageSession | null = null;
  try {
    pitr?.recorder.attach(db);
    session = new StorageSession(db, cfg.backend, sessionHooks(pitr, hooks, () => session as StorageSession));
  } catch (err) {
    db.close();
    pitr?.log.close();
    throw err;
  }
  return {
    session,
    kv: new KvStore(session),
    alarms: new AlarmStore(session, (time) => cfg.alarmIndex.lower(id.name, time)),
    sql: new SqlStorage(sqlite ? session : null),
    pitr: pitr ? new PitrService(pitr, session, cfg.now) : null,
    close: () => (session as StorageSession).close(),
  };
}
