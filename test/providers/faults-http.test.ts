/**
 * Faults at the HTTP layer that a real server does not produce on demand, injected by a fault proxy in
 * front of the real engine (unmatched calls pass through): a 200 whose body is cut off, a connection
 * reset after the write reached the server, 429 with Retry-After, and stalled answers. Each case
 * ends with exactly the desired objects (nothing duplicated) and every retry reported.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CustomPhase } from '../../src/api/index.js';
import type { LiveCustomEntrypoint } from '../../src/plan/index.js';
import { filterBodies } from '../../src/providers/contract.suite.js';
import { apiPath, cut, FaultTimeoutMs, openFaultHarness, sleep, type FaultHarness, type Intercepted } from './faults-harness.js';

let h: FaultHarness;
beforeEach(async () => { h = await openFaultHarness(); });
afterEach(async () => { await h.close(); });

const filtersPath = () => `/zones/${h.zone.id}/filters`;

/** The zone's filters' refs, read from the engine itself (not through the faults). */
async function liveRefs(): Promise<string[]> {
  const res = await h.engine.dispatch({ method: 'GET', path: filtersPath(), query: new URLSearchParams({ per_page: '100' }) });
  return ((res.body as { result: { ref: string }[] }).result).map((f) => f.ref).sort();
}

/** Applies the POST on the real engine, then answers with what `answer` makes of the real answer. */
function applied(answer: (status: number, body: unknown) => Promise<[number, string | object]> | [number, string | object]) {
  return async (req: Intercepted): Promise<[number, string | object]> => {
    const res = await h.engine.dispatch({ method: 'POST', path: filtersPath(), body: await req.json() });
    return answer(res.status, res.body);
  };
}

describe('HTTP faults: cut-off bodies', () => {
  it('a read whose 200 answer is cut off is retried as a network fault', async () => {
    await h.provider.createFilters(h.zone.id, filterBodies(3));
    h.faults
      .on('GET', apiPath(filtersPath()), [200, cut({ success: true, errors: [], messages: [], result: [{ id: 'x' }] })]);
    const live = await h.provider.readZone(h.zone.id);
    expect(live.filters.map((f) => f.ref).sort()).toEqual(['f-0', 'f-1', 'f-2']);
    expect(h.retries.map((r) => [r.method, r.reason])).toEqual([['GET', 'network']]);
    expect(h.faults.pending()).toEqual([]);
  });

  it('a create whose 200 answer is cut off after the server applied it is reconciled by re-reading: no duplicates', async () => {
    h.faults
      .on('POST', apiPath(filtersPath()), applied((status, body) => [status, cut(body, 120)]));
    const created = await h.provider.createFilters(h.zone.id, filterBodies(5));
    expect(created.map((f) => f.ref)).toEqual(['f-0', 'f-1', 'f-2', 'f-3', 'f-4']);
    expect(new Set(created.map((f) => f.id)).size).toBe(5);
    expect(await liveRefs()).toEqual(['f-0', 'f-1', 'f-2', 'f-3', 'f-4']);
    expect(h.retries.map((r) => [r.method, r.reason])).toEqual([['POST', 'lost-answer']]);
  });
});

describe('HTTP faults: a custom rule create whose answer is cut off', () => {
  it('looks the rule up by ref instead of sending it again, and reports the retry', async () => {
    const phase = await h.provider.putPhase<LiveCustomEntrypoint>(h.zone.id, CustomPhase, { rules: [{ ref: 'a', action: 'block', expression: 'ip.src eq 192.0.2.1', enabled: true }] });
    const rulesPath = `/zones/${h.zone.id}/rulesets/${phase.id}/rules`;
    h.faults
      .on('POST', apiPath(rulesPath), async (req: Intercepted) => {
        const res = await h.engine.dispatch({ method: 'POST', path: rulesPath, body: await req.json() });
        return [res.status, cut(res.body, 60)];
      });
    const live = await h.provider.createPhaseRule<LiveCustomEntrypoint>(h.zone.id, CustomPhase, phase.id, { ref: 'b', action: 'block', expression: 'ip.src eq 192.0.2.2', enabled: true });
    expect(live.rules.map((r) => r.ref)).toEqual(['a', 'b']);
    expect(h.retries.map((r) => [r.method, r.path, r.reason])).toEqual([['POST', rulesPath, 'lost-answer']]);
  });
});

describe('HTTP faults: connection reset after the write reached the server', () => {
  it('re-reads, finds what was created, sends only the rest', async () => {
    let posts = 0;
    h.faults
      .on('POST', apiPath(filtersPath()), async (req: Intercepted) => {
        posts++;
        // The server applies only the first two of the batch, then the connection drops.
        const body = (await req.json()) as unknown[];
        await h.engine.dispatch({ method: 'POST', path: filtersPath(), body: body.slice(0, 2) });
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      });
    const created = await h.provider.createFilters(h.zone.id, filterBodies(4));
    expect(posts).toBe(1);
    expect(created.map((f) => f.ref)).toEqual(['f-0', 'f-1', 'f-2', 'f-3']);
    expect(await liveRefs()).toEqual(['f-0', 'f-1', 'f-2', 'f-3']);
    expect(h.retries.map((r) => [r.method, r.reason])).toEqual([['POST', 'lost-answer']]);
  });
});

describe('HTTP faults: 429 with Retry-After', () => {
  it('waits what Retry-After asks, then converges', async () => {
    const limited = { success: false, errors: [{ code: 10429, message: 'rate limited' }], messages: [], result: null };
    h.faults
      .on('POST', apiPath(filtersPath()), [429, limited, { 'Retry-After': '7' }])
      .on('GET', apiPath(filtersPath()), [429, limited, { 'Retry-After': '3' }]);
    await h.provider.createFilters(h.zone.id, filterBodies(2));
    const live = await h.provider.readZone(h.zone.id);
    expect(live.filters.map((f) => f.ref).sort()).toEqual(['f-0', 'f-1']);
    expect(await liveRefs()).toEqual(['f-0', 'f-1']);
    expect(h.retries.map((r) => [r.method, r.reason, r.delayMs])).toEqual([['POST', 'rate-limited', 7000], ['GET', 'rate-limited', 3000]]);
    expect(h.clock.sleeps).toEqual(expect.arrayContaining([7000, 3000]));
  });
});

describe('HTTP faults: stalled answers', () => {
  it('a stalled read times out and is retried', async () => {
    await h.provider.createFilters(h.zone.id, filterBodies(2));
    h.faults
      .on('GET', apiPath(filtersPath()), async () => {
        await sleep(FaultTimeoutMs * 4);
        return [200, { success: true, errors: [], messages: [], result: [] }];
      });
    const live = await h.provider.readZone(h.zone.id);
    expect(live.filters.map((f) => f.ref).sort()).toEqual(['f-0', 'f-1']);
    expect(h.retries.map((r) => [r.method, r.reason])).toEqual([['GET', 'timeout']]);
  });

  it('a create that stalls after the server applied it is not sent twice', async () => {
    h.faults
      .on('POST', apiPath(filtersPath()), applied(async (status, body) => {
        await sleep(FaultTimeoutMs * 4);
        return [status, body as object];
      }));
    const created = await h.provider.createFilters(h.zone.id, filterBodies(3));
    expect(created.map((f) => f.ref)).toEqual(['f-0', 'f-1', 'f-2']);
    expect(await liveRefs()).toEqual(['f-0', 'f-1', 'f-2']);
    expect(h.retries.map((r) => [r.method, r.reason])).toEqual([['POST', 'lost-answer']]);
  });
});
