/**
 * A small in-memory v4 service behind the `Transport` interface, for unit tests of the shared v4
 * client: filters and firewall rules with pagination (per_page 5..100, `result_info`), array POST and
 * PUT, bulk DELETE; a fixed entry point answer, previous WAF and migration status. Every request is
 * logged, and a `fault` hook can make a call fail before or after the service applied it.
 */
import { ProviderError } from '../../src/providers/v4/errors.js';
import type { Envelope, Transport, TransportRequest, TransportResponse } from '../../src/providers/v4/transport.js';

type Obj = Record<string, unknown> & { id: string };

/** What a fault hook returns: a canned answer, or a lost answer (after or before applying the call). */
export type Fault = TransportResponse | 'lost-after-apply' | 'lost-before-apply' | undefined;

export class FakeTransport implements Transport {
  readonly stats = { requests: 0, retries: 0 };
  readonly log: TransportRequest[] = [];
  readonly filters: Obj[] = [];
  readonly rules: Obj[] = [];
  backoffs = 0;
  /** Answers of paths this fake does not model, keyed by `METHOD path`. */
  readonly canned = new Map<string, TransportResponse>();
  fault: (request: TransportRequest, index: number) => Fault = () => undefined;
  /** Leave `total_pages` out of `result_info` (services that only send counts). */
  omitTotals = false;
  private nextId = 1;

  async send(request: TransportRequest): Promise<TransportResponse> {
    this.stats.requests++;
    this.log.push(request);
    const fault = this.fault(request, this.log.length - 1);
    if (fault === 'lost-before-apply') throw new ProviderError('timed out', { outcome: 'unknown' });
    if (fault !== undefined && fault !== 'lost-after-apply') return fault;
    const answer = this.handle(request);
    if (fault === 'lost-after-apply') throw new ProviderError('timed out', { outcome: 'unknown' });
    return answer;
  }

  backoff(): Promise<void> {
    this.backoffs++;
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Requests whose method and path match. */
  count(method: string, pathSuffix: string): number {
    return this.log.filter((r) => r.method === method && r.path.endsWith(pathSuffix)).length;
  }

  newId(): string {
    return (this.nextId++).toString(16).padStart(32, '0');
  }

  private handle(request: TransportRequest): TransportResponse {
    const canned = this.canned.get(`${request.method} ${request.path}`);
    if (canned !== undefined) return canned;
    const store = request.path.endsWith('/filters') ? this.filters : request.path.endsWith('/firewall/rules') ? this.rules : undefined;
    if (store === undefined) return error(404, 7003, `Could not route to ${request.path}`);
    switch (request.method) {
      case 'GET': return this.list(store, request.query ?? new URLSearchParams());
      case 'POST': {
        const created = (request.body as Record<string, unknown>[]).map((b) => ({ paused: false, ...b, id: this.newId() }));
        store.push(...created);
        return ok(created);
      }
      case 'PUT': {
        const updated = (request.body as Obj[]).map((b) => {
          const i = store.findIndex((o) => o.id === b.id);
          store[i] = { ...b };
          return store[i];
        });
        return ok(updated);
      }
      case 'DELETE': {
        const ids = request.query?.getAll('id') ?? [];
        for (const id of ids) {
          const i = store.findIndex((o) => o.id === id);
          if (i >= 0) store.splice(i, 1);
        }
        return ok(ids.map((id) => ({ id })));
      }
      default: return error(405, 7001, 'method not allowed');
    }
  }

  private list(store: Obj[], query: URLSearchParams): TransportResponse {
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page') ?? 25);
    if (perPage < 5 || perPage > 100) return error(400, 10017, 'per_page out of range');
    const items = store.slice((page - 1) * perPage, page * perPage);
    const info: NonNullable<Envelope['result_info']> = { page, per_page: perPage, count: items.length, total_count: store.length };
    if (!this.omitTotals) info.total_pages = Math.ceil(store.length / perPage);
    else delete (info as { total_count?: number }).total_count;
    return { status: 200, headers: {}, body: { success: true, errors: [], messages: [], result: items, result_info: info } };
  }
}

/** A 200 envelope. */
export function ok(result: unknown, messages: { message: string }[] = []): TransportResponse {
  return { status: 200, headers: {}, body: { success: true, errors: [], messages, result } };
}

/** An error envelope. */
export function error(status: number, code: number, message: string): TransportResponse {
  return { status, headers: {}, body: { success: false, errors: [{ code, message }], messages: [], result: null } };
}
