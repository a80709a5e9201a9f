/**
 * What a stateful object of the engine (a zone object, an account object) does with its storage
 * apart from answering requests: it opens it (its tables' statements in one transaction), copies its
 * rows out and in (`dump`, `load`: moving it to another runtime or engine), and records and restores
 * PITR bookmarks (seed 001's point-in-time recovery). Both objects extend this one class, so the
 * plumbing of seed 001's interface is written once; they add their requests and their caches.
 */
import type { Sql } from './sql.js';
import { dumpZone, loadZone, type ZoneDump } from './zone-dump.js';

/** The slice of the storage object state (`ctx`) a stateful object of the engine uses. */
export interface StoredObjectState {
  storage: {
    sql: Sql;
    transactionSync<T>(fn: () => T): T;
    getCurrentBookmark(): Promise<string>;
    onNextSessionRestoreBookmark(bookmark: string): Promise<string>;
    deleteAll(): Promise<void>;
  };
  abort(reason?: unknown): void;
}

/** The storage plumbing shared by the zone and account objects (see the file's header). */
export abstract class StoredObject {
  protected readonly state: StoredObjectState;

  constructor(state: StoredObjectState) {
    this.state = state;
  }

  /** Runs the object's table statements in one transaction (opening its storage). */
  protected createTables(statements: readonly string[]): void {
    this.state.storage.transactionSync(() => {
      for (const statement of statements) this.state.storage.sql.exec(statement);
    });
  }

  /** Every row of the object's tables. */
  dump(): ZoneDump {
    return dumpZone(this.state.storage.sql);
  }

  /** Replaces the object's rows with a dump's, in one transaction. */
  load(dump: ZoneDump): void {
    this.state.storage.transactionSync(() => loadZone(this.state.storage.sql, dump));
  }

  /** PITR bookmark of the object's storage now. */
  bookmark(): Promise<string> {
    return this.state.storage.getCurrentBookmark();
  }

  /** Schedules a restore and restarts the object so it takes effect at the next event. */
  async restore(bookmark: string): Promise<void> {
    await this.state.storage.onNextSessionRestoreBookmark(bookmark);
    this.state.abort('restoring a bookmark');
  }

  /** A no-op event: starts (or restarts) the object. */
  ping(): boolean {
    return true;
  }
}
