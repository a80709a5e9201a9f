/**
 * Page Rules in the zone's SQL (`page_rules`): targets and actions as JSON, creation order kept in
 * `seq` (the tie-break of equal priorities). Every write runs inside the request's transaction, so
 * PITR bookmarks cover Page Rules like every other table of the zone.
 */
import type { Sql, SqlRow } from '../sql.js';
import type { PageRule } from './constants.js';

/** DDL of the Page Rules table (idempotent). */
export const pageRulesSchema = [
  `CREATE TABLE IF NOT EXISTS page_rules (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    targets TEXT NOT NULL,
    actions TEXT NOT NULL,
    priority INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_on TEXT NOT NULL,
    modified_on TEXT NOT NULL
  )`,
] as const;

function rowToPageRule(r: SqlRow): PageRule {
  return {
    id: r.id as string,
    targets: JSON.parse(r.targets as string) as PageRule['targets'],
    actions: JSON.parse(r.actions as string) as PageRule['actions'],
    priority: r.priority as number,
    status: r.status as PageRule['status'],
    created_on: r.created_on as string,
    modified_on: r.modified_on as string,
  };
}

/** Every Page Rule, in creation order. */
export function listPageRules(sql: Sql): PageRule[] {
  return sql.exec('SELECT * FROM page_rules ORDER BY seq').toArray().map(rowToPageRule);
}

/** One Page Rule by id. */
export function getPageRule(sql: Sql, id: string): PageRule | undefined {
  const rows = sql.exec('SELECT * FROM page_rules WHERE id = ?', id).toArray();
  return rows.length > 0 ? rowToPageRule(rows[0]!) : undefined;
}

/** The number of Page Rules (the plan's quota counts them all, active or not). */
export function countPageRules(sql: Sql): number {
  return sql.exec<{ n: number }>('SELECT count(*) AS n FROM page_rules').one().n;
}

/** Inserts a new rule or replaces an existing one in place (it keeps its creation order). */
export function savePageRule(sql: Sql, rule: PageRule): void {
  const args = [JSON.stringify(rule.targets), JSON.stringify(rule.actions), rule.priority, rule.status, rule.created_on, rule.modified_on];
  const updated = sql.exec('UPDATE page_rules SET targets = ?, actions = ?, priority = ?, status = ?, created_on = ?, modified_on = ? WHERE id = ?', ...args, rule.id).rowsWritten;
  if (updated === 0) sql.exec('INSERT INTO page_rules (targets, actions, priority, status, created_on, modified_on, id) VALUES (?, ?, ?, ?, ?, ?, ?)', ...args, rule.id);
}

/** Deletes a rule; false when there was none. */
export function deleteStoredPageRule(sql: Sql, id: string): boolean {
  return sql.exec('DELETE FROM page_rules WHERE id = ?', id).rowsWritten > 0;
}
