/**
 * Bulk operations of item writes. The engine applies an item write when it accepts it (in the
 * request's transaction), so a client whose answer was lost sees the write's effect when it reads
 * the list again, and records the operation as `completed` (or `failed`: the account's item quota,
 * nothing applied). `operationPolls` (a test hook, `EngineOptions.listOperationPolls`) makes each
 * operation answer `pending`, then `running`, for that many polls before its final status; while
 * an operation of the account has not reported its final status, another item write is refused
 * with 429 (the official client's documentation: one pending bulk operation per account).
 */
import { ListErrors, type BulkOperationJson } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import { newId } from '../ids.js';
import type { Sql } from '../sql.js';

type OperationRow = { id: string; status: 'completed' | 'failed'; error: string | null; completed: string; polls_left: number; polls_total: number };

/** Records an operation of `listId`; answers its id. */
export function recordOperation(sql: Sql, listId: string, outcome: { error?: string }, now: string, polls: number): string {
  const id = newId();
  sql.exec('INSERT INTO list_operations (id, list_id, status, error, completed, polls_left, polls_total) VALUES (?, ?, ?, ?, ?, ?, ?)',
    id, listId, outcome.error === undefined ? 'completed' : 'failed', outcome.error ?? null, now, polls, polls);
  return id;
}

/** Refuses an item write while another operation of the account is still reported as processing. */
export function requireNoOperationInProgress(sql: Sql): void {
  const busy = sql.exec<{ id: string }>('SELECT id FROM list_operations WHERE polls_left > 0 ORDER BY seq LIMIT 1').toArray()[0];
  if (busy !== undefined) {
    throw ApiError.from(ListErrors.operationInProgress, `bulk operation ${busy.id} of this account is still processing; poll GET …/rules/lists/bulk_operations/${busy.id} until it completes, then retry`);
  }
}

/** The status of an operation (one poll: a processing operation moves towards its final status). */
export function pollOperation(sql: Sql, id: string): BulkOperationJson {
  const row = sql.exec<OperationRow>('SELECT id, status, error, completed, polls_left, polls_total FROM list_operations WHERE id = ?', id).toArray()[0];
  if (row === undefined) throw ApiError.from(ListErrors.operationNotFound, `bulk operation ${id} not found`);
  if (row.polls_left > 0) {
    sql.exec('UPDATE list_operations SET polls_left = polls_left - 1 WHERE id = ?', id);
    return { id, status: row.polls_left === row.polls_total ? 'pending' : 'running' };
  }
  if (row.status === 'failed') return { id, status: 'failed', completed: row.completed, error: row.error ?? '' };
  return { id, status: 'completed', completed: row.completed };
}
