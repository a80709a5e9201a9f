/**
 * The namespace's alarm index (`<dir>/alarms.sqlite`, after workerd's `metadata.sqlite`): which
 * objects may have an alarm and from when, so that reopening a namespace arms overdue and future
 * alarms without opening every object. The object's own database is the truth; the index is a
 * hint that is never later than the truth: before an alarm write commits, the index is lowered to
 * the new time (durably), and after the commit it is set to the committed value. A crash between
 * the two leaves an early or stale entry, which only causes a check that re-arms or finds nothing.
 */
import Database from 'better-sqlite3';

/** The alarm hints of one namespace directory. */
export class AlarmIndex {
  readonly #db: Database.Database;
  readonly #get: Database.Statement;
  readonly #put: Database.Statement;
  readonly #delete: Database.Statement;
  readonly #known = new Map<string, number>();

  constructor(file: string) {
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.exec('CREATE TABLE IF NOT EXISTS _zw_alarms (name TEXT PRIMARY KEY, time INTEGER NOT NULL) WITHOUT ROWID');
    this.#get = this.#db.prepare('SELECT name, time FROM _zw_alarms');
    this.#put = this.#db.prepare('INSERT OR REPLACE INTO _zw_alarms (name, time) VALUES (?, ?)');
    this.#delete = this.#db.prepare('DELETE FROM _zw_alarms WHERE name = ?');
    for (const row of this.#get.all() as Array<{ name: string; time: number }>) this.#known.set(row.name, row.time);
  }

  /** Every (name, time) hint. */
  entries(): Array<[string, number]> {
    return [...this.#known];
  }

  /** Before an alarm write commits: make sure the hint is no later than `time`. */
  lower(name: string, time: number): void {
    const known = this.#known.get(name);
    if (known !== undefined && known <= time) return;
    this.#put.run(name, time);
    this.#known.set(name, time);
  }

  /** After a commit: record the committed alarm (null: none). */
  set(name: string, time: number | null): void {
    if (this.#known.get(name) === (time ?? undefined)) return;
    if (time === null) {
      this.#delete.run(name);
      this.#known.delete(name);
    } else {
      this.#put.run(name, time);
      this.#known.set(name, time);
    }
  }

  /** Closes the index database. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
