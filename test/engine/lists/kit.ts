/**
 * Test kit of the Lists suite: an engine in a temp state directory, called in-process, with
 * helpers for the Lists routes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type ApiResponse, type EngineOptions } from '../../../src/engine/index.js';

/** The default account's id (the one zones have always shown). */
export const DefaultAccountId = '0e7e0e7e0e7e0e7e0e7e0e7e0e7e0e7e';

/** An engine in a temp directory and shortcuts for its calls. */
export interface ListsKit {
  dir: string;
  engine: Engine;
  call(method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<ApiResponse>;
  /** The base path of an account's lists. */
  lists(account?: string): string;
  /** Creates a list and answers its id (fails the test on a refusal). */
  createList(name: string, kind?: string, account?: string): Promise<string>;
  /** Writes items (POST or PUT) and answers the operation's status as polled once. */
  write(method: 'POST' | 'PUT' | 'DELETE', listId: string, body: unknown, account?: string): Promise<{ status: number; operation?: Record<string, unknown>; response: ApiResponse }>;
  /** Every item of a list, following the cursors. */
  items(listId: string, account?: string, perPage?: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Opens a kit (in `dir` when given, to reopen a state directory). */
export async function startListsKit(options: Partial<EngineOptions> = {}): Promise<ListsKit> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'zw-lists-'));
  const engine = await Engine.open({ ...options, dir });
  const lists = (account = DefaultAccountId): string => `/accounts/${account}/rules/lists`;
  const call = (method: string, path: string, body?: unknown, query?: Record<string, string>) =>
    engine.dispatch({ method, path, ...(body !== undefined ? { body } : {}), ...(query !== undefined ? { query: new URLSearchParams(query) } : {}) });
  const kit: ListsKit = {
    dir, engine, call, lists,
    async createList(name, kind = 'ip', account) {
      const res = await call('POST', lists(account), { name, kind, description: `${name} list` });
      if (res.status !== 200) throw new Error(`create list ${name}: ${JSON.stringify(res.body.errors)}`);
      return (res.body.result as { id: string }).id;
    },
    async write(method, listId, body, account) {
      const response = await call(method, `${lists(account)}/${listId}/items`, body);
      if (response.status !== 200) return { status: response.status, response };
      const id = (response.body.result as { operation_id: string }).operation_id;
      const op = await call('GET', `${lists(account)}/bulk_operations/${id}`);
      return { status: 200, operation: op.body.result as Record<string, unknown>, response };
    },
    async items(listId, account, perPage = 2) {
      const out: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      for (;;) {
        const res = await call('GET', `${lists(account)}/${listId}/items`, undefined, { per_page: String(perPage), ...(cursor !== undefined ? { cursor } : {}) });
        if (res.status !== 200) throw new Error(JSON.stringify(res.body.errors));
        out.push(...(res.body.result as Record<string, unknown>[]));
        cursor = (res.body.result_info as unknown as { cursors: { after?: string } }).cursors.after;
        if (cursor === undefined) return out;
      }
    },
    async close() {
      await engine.close();
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
  return kit;
}
