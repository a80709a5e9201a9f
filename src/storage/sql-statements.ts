/**
 * The prepared statements of one `SqlStorage`, each with its counting facts (`sql-plan.ts`), cached
 * per SQL string (LRU, like the reference's 1 MiB statement cache). The facts are for one schema:
 * they are shared process-wide between databases of the same schema (`plansBySchema`), and dropped
 * with the prepared statements (and the row counts' queries) when the schema changes.
 */
import type Database from 'better-sqlite3';
import { bindArguments } from './sql-limits.js';
import type { ParsedStatement } from './sql-parse.js';
import { planStatement, type StatementPlan } from './sql-plan.js';
import type { RowCounts } from './sql-row-counts.js';
import { plansBySchema, SCHEMA_ENTRIES, SCHEMA_KEY, TextLru } from './sql-cache.js';

/** A prepared statement with its counting facts. */
export interface Prepared {
  stmt: Database.Statement;
  plan: StatementPlan;
  columns: string[];
}

/** The prepared statements of one session's `sql`, for the schema it has now. */
export class PreparedStatements {
  readonly #statements = new TextLru<Prepared>();
  #schemaVersion: Database.Statement | null = null;
  /** The counting facts of this database's schema (`plansBySchema`), and the `schema_version` they are for. */
  #schema: { version: number; plans: TextLru<StatementPlan> } | null = null;
  /** Cleared with the statements: its queries are for the same schema. */
  readonly #rowCounts: RowCounts;

  constructor(rowCounts: RowCounts) {
    this.#rowCounts = rowCounts;
  }

  /** Forgets every statement and counting fact (a schema change ran, or a rollback may have undone one). */
  clear(): void {
    this.#statements.clear();
    this.#schema = null;
    this.#rowCounts.clear();
  }

  /** The statement `statement` prepared on `db`, with its counting facts (cached per SQL string). */
  prepare(db: Database.Database, statement: ParsedStatement): Prepared {
    let prepared = this.#statements.get(statement.sql);
    if (prepared === undefined) {
      const stmt = db.prepare(statement.sql);
      if (stmt.reader) stmt.raw(true);
      const columns = stmt.reader ? stmt.columns().map((c) => c.name) : [];
      const plans = this.#plans(db);
      let plan = plans.get(statement.sql);
      if (plan === undefined) {
        plan = planStatement(db, statement.sql, bindArguments(statement.parameters, Array(statement.parameters.count).fill(null)));
        plans.set(statement.sql, plan);
      }
      prepared = { stmt, plan, columns };
      this.#statements.set(statement.sql, prepared);
    }
    // A statement still stepped by an earlier cursor cannot be run again: compile a one-off copy.
    if (prepared.stmt.busy) {
      const stmt = db.prepare(statement.sql);
      if (stmt.reader) stmt.raw(true);
      return { ...prepared, stmt };
    }
    return prepared;
  }

  /**
   * The counting facts of the schema the database has now. `schema_version` moves with every
   * schema change, whoever makes it (the key-value table is created outside `exec`), and a
   * rollback, which can move it back, drops what this session knew (`onRollback`).
   */
  #plans(db: Database.Database): TextLru<StatementPlan> {
    this.#schemaVersion ??= db.prepare('PRAGMA schema_version').pluck();
    const version = this.#schemaVersion.get() as number;
    if (this.#schema?.version === version) return this.#schema.plans;
    this.#rowCounts.clear();
    // The key made by SQLite as one text: no row arrays, nor texts joined from them, per object opened.
    const key = (db.prepare(SCHEMA_KEY).pluck().get() as string | null) ?? '';
    let plans = plansBySchema.get(key);
    if (plans === undefined) {
      if (plansBySchema.size >= SCHEMA_ENTRIES) plansBySchema.clear();
      plansBySchema.set(key, (plans = new TextLru<StatementPlan>()));
    }
    this.#schema = { version, plans };
    return plans;
  }
}
