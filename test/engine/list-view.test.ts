/**
 * The in-memory lists of a zone object (`src/engine/list-view.ts`): after every kind of write
 * (create, update, bulk edit, reorder by priority or action, a filter edited under its rules,
 * deletes, a refused write, a PITR restore), every page of the unfiltered filters and firewall
 * rules lists is exactly, byte for byte, what a fresh read of SQLite answers: the same pages
 * through the SQL path (a `description=` query, which matches every row), and, at the end, the
 * pages of a restarted engine. A guard checks that only the store files write the listed tables.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine } from '../../src/engine/index.js';
import { ApiError } from '../../src/engine/api-errors.js';
import { insertFilter } from '../../src/engine/filters/store.js';
import { ruleListSource } from '../../src/engine/firewall-rules/list.js';
import { deleteRule, updateRule } from '../../src/engine/firewall-rules/store.js';
import { ListView } from '../../src/engine/list-view.js';
import { resourcesWithZoneRoute, result, startHarness, type Harness } from './helpers.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.cleanup();
});

const PAGE_SIZES = [5, 7, 100];

/** Every page of a list, as the bytes the server sent, for each page size. */
async function pages(h: Harness, path: string, extra = ''): Promise<string[]> {
  const out: string[] = [];
  for (const perPage of PAGE_SIZES) {
    for (let page = 1; ; page++) {
      const reply = await h.api('GET', `${path}?per_page=${perPage}&page=${page}${extra}`);
      expect(reply.status).toBe(200);
      out.push(reply.text);
      if (page >= (reply.body.result_info?.total_pages ?? 0)) break;
    }
  }
  return out;
}

/** Both lists of zone `z`: from the in-memory view (read twice: built, then cached) and fresh from SQL. */
async function expectFresh(h: Harness, z: string): Promise<string[]> {
  const all: string[] = [];
  for (const path of [`/zones/${z}/firewall/rules`, `/zones/${z}/filters`]) {
    const view = await pages(h, path);
    expect(await pages(h, path)).toEqual(view);
    // `description=` matches every row and takes the SQL path: a fresh read of the same zone.
    const fresh = (await pages(h, path, '&description=')).map((text) => text);
    expect(view).toEqual(fresh);
    all.push(...view);
  }
  return all;
}

const rule = (i: number, extra: Record<string, unknown> = {}) => ({
  filter: { expression: `http.request.uri.path eq "/r/${i}"` },
  action: ['block', 'log', 'allow', 'challenge', 'js_challenge'][i % 5],
  description: i % 4 === 0 ? '' : `rule ${i}`,
  ...(i % 3 === 0 ? {} : { priority: (i * 7) % 11 }),
  ...(i % 6 === 1 ? { paused: true } : {}),
  ...extra,
});

describe('in-memory list pages after writes', () => {
  it('stay exactly what a fresh read of the zone answers', async () => {
    const h = await startHarness();
    harnesses.push(h);
    const z = await h.zone('lists.example', 'enterprise');
    const R = `/zones/${z}/firewall/rules`;
    const F = `/zones/${z}/filters`;
    const shared = result<{ id: string }[]>(await h.api('POST', F, [
      { expression: 'ip.src eq 192.0.2.1', description: 'shared' },
      { expression: 'http.host eq "a.example"' },
      { expression: 'http.host eq "b.example"', ref: 'b' },
    ]));
    result(await h.api('POST', R, Array.from({ length: 40 }, (_, i) => rule(i))));
    result(await h.api('POST', R, [{ filter: { id: shared[0]!.id }, action: 'block', priority: 3 }, { filter: { id: shared[0]!.id }, action: 'log' }]));
    await expectFresh(h, z);
    const ids = () => h.api('GET', `${R}?per_page=100`).then((r) => result<{ id: string; filter: { id: string } }[]>(r));
    const mark = await h.engine.bookmark(z);
    const atMark = await expectFresh(h, z);

    let list = await ids();
    // Reorder by priority, then by action (PUT), then several at once.
    result(await h.api('PATCH', `${R}/${list[0]!.id}`, { priority: 9 }));
    await expectFresh(h, z);
    list = await ids();
    const last = list[list.length - 1]!;
    result(await h.api('PUT', `${R}/${last.id}`, { id: last.id, filter: { id: last.filter.id }, action: 'allow', priority: 1, description: 'moved' }));
    await expectFresh(h, z);
    list = await ids();
    result(await h.api('PATCH', R, [{ id: list[3]!.id, priority: null }, { id: list[4]!.id, paused: true }, { id: list[5]!.id, description: 'edited' }]));
    await expectFresh(h, z);
    // A filter edited under the two rules that embed it.
    result(await h.api('PUT', `${F}/${shared[0]!.id}`, { id: shared[0]!.id, expression: 'ip.src in {192.0.2.0/24}', description: 'shared, wider' }));
    await expectFresh(h, z);
    // Deletes: one rule and its now unused inline filter, then two rules in one request.
    list = await ids();
    result(await h.api('DELETE', `${R}/${list[2]!.id}`, { delete_filter_if_unused: true }));
    await expectFresh(h, z);
    list = await ids();
    result(await h.api('DELETE', `${R}?id=${list[0]!.id}&id=${list[1]!.id}`));
    result(await h.api('DELETE', `${F}/${shared[2]!.id}`));
    await expectFresh(h, z);
    // A refused write changes nothing (its rows are re-read as they were).
    list = await ids();
    const refused = await h.api('PATCH', R, [{ id: list[0]!.id, priority: 2 }, { id: 'f'.repeat(32), priority: 1 }]);
    expect(refused.status).toBe(404);
    await expectFresh(h, z);
    // Many rows at once (the view reloads instead of re-reading row by row).
    result(await h.api('POST', R, Array.from({ length: 20 }, (_, i) => rule(100 + i))));
    await expectFresh(h, z);
    const before = await expectFresh(h, z);

    // A restarted engine (fresh zone objects, lists read from SQLite) answers the same bytes.
    await h.stop();
    const h2 = await startHarness({ dir: h.dir });
    harnesses.push(h2);
    expect(await expectFresh(h2, z)).toEqual(before);
    // PITR: back to the bookmark, the lists are those of that moment.
    await h2.engine.restore(z, mark);
    expect(await expectFresh(h2, z)).toEqual(atMark);
  });
});

describe('a write that rolls back', () => {
  it('leaves the in-memory lists as they were', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-engine-lists-'));
    // Writes through the store functions (so the rows are noted), then refuses or crashes.
    const failing = resourcesWithZoneRoute('failing', 'POST', (ctx) => {
      const { id, filter } = ctx.body as { id: string; filter: string };
      updateRule(ctx.sql, id, { filterId: filter, action: 'allow', priority: 1, paused: false, description: 'rolled back', ref: '', products: [] }, ctx.now);
      insertFilter(ctx.sql, { id: 'e'.repeat(32), expression: 'true', canonical: 'true', usesMatches: false, paused: false, description: '', ref: '', locked: false }, ctx.now);
      deleteRule(ctx.sql, id);
      if ((ctx.body as { crash?: boolean }).crash === true) throw new Error('boom');
      throw ApiError.of('invalidField', 'refused');
    });
    const engine = await Engine.open({ dir, resources: failing, logError: () => undefined });
    try {
      const zone = await engine.createZone('rollback.example');
      const R = `/zones/${zone.id}/firewall/rules`;
      await engine.dispatch({ method: 'POST', path: R, body: Array.from({ length: 12 }, (_, i) => rule(i)) });
      const list = (query = '') => engine.dispatch({ method: 'GET', path: R, query: new URLSearchParams(`per_page=5${query}`) }).then((r) => JSON.stringify(r.body));
      const filters = () => engine.dispatch({ method: 'GET', path: `/zones/${zone.id}/filters` }).then((r) => JSON.stringify(r.body));
      const before = [await list(), await filters()];
      const [first] = (await engine.dispatch({ method: 'GET', path: R })).body.result as { id: string; filter: { id: string } }[];
      for (const crash of [false, true]) {
        const reply = await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/failing`, body: { id: first!.id, filter: first!.filter.id, crash } });
        expect(reply.status).toBe(crash ? 500 : 400);
        expect([await list(), await filters()]).toEqual(before);
        expect(await list()).toEqual(await list('&description='));
      }
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a write, and the reads after it', () => {
  it('re-reads the written rows during the write; the reads of pages it left unchanged are memo hits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-engine-lists-'));
    const engine = await Engine.open({ dir });
    const one = vi.spyOn(ruleListSource, 'one');
    const all = vi.spyOn(ruleListSource, 'all');
    const page = vi.spyOn(ListView.prototype, 'page');
    try {
      const zone = await engine.createZone('settle.example');
      const R = `/zones/${zone.id}/firewall/rules`;
      await engine.respond({ method: 'POST', path: R, body: Array.from({ length: 30 }, (_, i) => rule(i)) });
      const read = (n: number) => engine.respond({ method: 'GET', path: R, query: new URLSearchParams(`per_page=10&page=${n}`) });
      const before = [await read(1), await read(2), await read(3)];
      const last = (before[2]!.body.result as { id: string }[])[9]!.id;
      expect(all).toHaveBeenCalledTimes(1);

      one.mockClear();
      page.mockClear();
      await engine.respond({ method: 'PATCH', path: `${R}/${last}`, body: { description: 'edited' } });
      expect(one).toHaveBeenCalledTimes(1); // during the write
      const after = [await read(1), await read(2), await read(3)];
      expect(one).toHaveBeenCalledTimes(1);
      expect(all).toHaveBeenCalledTimes(1);
      // Pages 1 and 2 are the same answers, from the memo (no handler ran); page 3 is new.
      expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
      expect(after[0]).toBe(before[0]);
      expect(after[1]).toBe(before[1]);
      expect(page).toHaveBeenCalledTimes(1);
      expect((after[2]!.body.result as { description?: string }[])[9]!.description).toBe('edited');

      // A write to more than an eighth of the rows drops the copy: the next read loads it whole.
      const ids = [...(before[0]!.body.result as { id: string }[]), ...(before[1]!.body.result as { id: string }[])].map((r) => r.id);
      await engine.respond({ method: 'PATCH', path: R, body: ids.slice(0, 5).map((id) => ({ id, paused: true })) });
      expect(all).toHaveBeenCalledTimes(1);
      const reloaded = await read(1);
      expect(all).toHaveBeenCalledTimes(2);
      expect((reloaded.body.result as { paused: boolean }[]).filter((r) => r.paused).length).toBeGreaterThanOrEqual(5);
    } finally {
      one.mockRestore();
      all.mockRestore();
      page.mockRestore();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A harness whose zone `name` holds `count` rules, and the zone's rules path. */
async function zoneWithRules(name: string, count: number): Promise<{ h: Harness; R: string }> {
  const h = await startHarness();
  harnesses.push(h);
  const R = `/zones/${await h.zone(name, 'enterprise')}/firewall/rules`;
  await h.api('POST', R, Array.from({ length: count }, (_, i) => rule(i)));
  return { h, R };
}

describe('the read memo', () => {
  it('answers the same query in any parameter order from one entry, and never another page', async () => {
    const { h, R } = await zoneWithRules('memo.example', 12);
    const read = (query: string) => h.engine.respond({ method: 'GET', path: R, query: new URLSearchParams(query) });
    const a = await read('page=2&per_page=5');
    expect(await read('per_page=5&page=2')).toBe(a);
    const other = await read('per_page=5&page=3');
    expect(other).not.toBe(a);
    expect(other.body.result_info).toMatchObject({ page: 3, per_page: 5 });
    expect((await read('page=5&per_page=2')).status).toBe(400);
    expect((await read('per_page=5&page=2&page=3')).body.result_info).toMatchObject({ page: 2 });
  });
});

describe('the whole rules list', () => {
  it('embeds the filter list\'s own filter objects (no second read of the filters), and follows a filter edit', async () => {
    const { h, R } = await zoneWithRules('embeds.example', 12);
    const F = R.replace('/firewall/rules', '/filters');
    const list = async (path: string) => (await h.engine.dispatch({ method: 'GET', path, query: new URLSearchParams('per_page=100') })).body.result as { id: string; expression?: string; filter: { id: string; expression: string } }[];
    const filters = new Map((await list(F)).map((f) => [f.id, f]));
    const rules = await list(R);
    expect(rules).toHaveLength(12);
    for (const r of rules) expect(r.filter).toBe(filters.get(r.filter.id));
    // Shared with in-process answers: frozen through and through (the filters by the filter list).
    expect(rules.every((r) => Object.isFrozen(r) && Object.isFrozen(r.filter))).toBe(true);
    // A filter edited under a rule (made through the filters API, so it may be edited), with the whole lists read before.
    const [own] = result<{ id: string }[]>(await h.api('POST', F, [{ expression: 'ip.src eq 192.0.2.1' }]));
    result(await h.api('POST', R, [{ filter: { id: own!.id }, action: 'log' }]));
    await list(F);
    await list(R);
    result(await h.api('PUT', `${F}/${own!.id}`, { id: own!.id, expression: 'ip.src eq 192.0.2.2' }));
    expect((await list(R)).find((r) => r.filter.id === own!.id)!.filter.expression).toBe('ip.src eq 192.0.2.2');
    expect((await h.api('GET', R)).text).toBe((await h.api('GET', `${R}?description=`)).text);
  });
});

describe('a write, and the pages the server sent before it', () => {
  it('are made again during the write, so the reads after it find them in the memo', async () => {
    const { h, R } = await zoneWithRules('served.example', 30);
    const read = (n: number) => h.api('GET', `${R}?per_page=10&page=${n}`);
    const before = [await read(1), await read(2), await read(3)];
    const last = (before[2]!.body.result as { id: string }[])[9]!.id;
    const page = vi.spyOn(ListView.prototype, 'page');
    try {
      await h.api('PATCH', `${R}/${last}`, { description: 'edited while served' });
      const after = [await read(1), await read(2), await read(3)];
      expect(page).not.toHaveBeenCalled();
      expect(after.slice(0, 2).map((r) => r.text)).toEqual(before.slice(0, 2).map((r) => r.text));
      expect((after[2]!.body.result as { description?: string }[])[9]!.description).toBe('edited while served');
      expect(after[2]!.text).toBe((await h.api('GET', `${R}?per_page=10&page=3&description=`)).text);
    } finally {
      page.mockRestore();
    }
  });
});

describe('writers of the listed tables', () => {
  it('are the store files only (each write notes its row for the in-memory lists)', () => {
    const root = join(__dirname, '../../src');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && !/engine\/(filters|firewall-rules)\/store\.ts$/.test(path)) {
          if (/(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+(firewall_rules|filters)\b/i.test(readFileSync(path, 'utf8'))) offenders.push(path);
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
    for (const store of ['engine/filters/store.ts', 'engine/firewall-rules/store.ts']) {
      const text = readFileSync(join(root, store), 'utf8');
      const writes = text.match(/(INSERT INTO|UPDATE|DELETE FROM) (firewall_rules|filters)\b/g) ?? [];
      expect(writes.length).toBeGreaterThan(0);
      expect((text.match(/noteWrite\(sql, /g) ?? []).length).toBe(writes.length);
    }
  });
});

describe('the whole rules list read from SQLite', () => {
  it('shows each rule its own action, products and timestamps, where rows keep one copy of repeated texts', async () => {
    const h = await startHarness();
    harnesses.push(h);
    const z = await h.zone('texts.example', 'enterprise');
    const R = `/zones/${z}/firewall/rules`;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Three writes at three times, actions alternating, then one rule edited later still.
      for (const [i, at] of ['2024-01-01T00:00:00.000Z', '2024-02-02T00:00:00.000Z', '2024-03-03T00:00:00.000Z'].entries()) {
        vi.setSystemTime(new Date(at));
        result(await h.api('POST', R, Array.from({ length: 4 }, (_, j) => rule(10 * i + j, { priority: 4 * i + j, action: j % 2 === 0 ? 'block' : 'log' }))));
        result(await h.api('POST', R, [rule(10 * i + 5, { priority: 20 + i, action: 'bypass', products: ['waf', 'uaBlock'].slice(0, i + 1) })]));
      }
      const [first] = result<{ id: string }[]>(await h.api('GET', `${R}?per_page=100`));
      vi.setSystemTime(new Date('2024-04-04T00:00:00.000Z'));
      result(await h.api('PATCH', `${R}/${first!.id}`, { description: 'edited' }));
    } finally {
      vi.useRealTimers();
    }
    // A restarted engine reads the whole list from SQLite in one pass.
    await h.stop();
    const h2 = await startHarness({ dir: h.dir });
    harnesses.push(h2);
    const list = result<{ id: string; action: string; created_on: string; modified_on: string }[]>(await h2.api('GET', `${R}?per_page=100`));
    // By day: writes at one frozen time may step a millisecond on (\`epochMicros\` keeps them in order).
    expect(new Set(list.map((r) => r.created_on.slice(0, 10)))).toEqual(new Set(['2024-01-01', '2024-02-02', '2024-03-03']));
    expect(list.filter((r) => r.modified_on !== r.created_on)).toHaveLength(1);
    expect(list.filter((r) => 'products' in r)).toHaveLength(3);
    for (const r of list) expect(r).toEqual(result(await h2.api('GET', `${R}/${r.id}`)));
    expect((await h2.api('GET', `${R}?per_page=100`)).text).toBe((await h2.api('GET', `${R}?per_page=100&description=`)).text);
  });
});

describe('a rule whose action is not one the API knows (written before it was dropped)', () => {
  it('lists with its action as stored, after the known ones of its priority, in every read path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-engine-lists-'));
    const legacy = resourcesWithZoneRoute('legacy', 'POST', (ctx) => {
      const { id, filter } = ctx.body as { id: string; filter: string };
      updateRule(ctx.sql, id, { filterId: filter, action: 'legacy_action' as 'block', priority: 1, paused: false, description: 'old', ref: '', products: [] }, ctx.now);
      return { status: 200, body: { success: true, errors: [], messages: [], result: null } };
    });
    const open = () => Engine.open({ dir, resources: legacy, logError: () => undefined });
    let engine = await open();
    try {
      const zone = await engine.createZone('legacy.example');
      const R = `/zones/${zone.id}/firewall/rules`;
      await engine.dispatch({ method: 'POST', path: R, body: Array.from({ length: 6 }, (_, i) => rule(i, { priority: 1 })) });
      const [first] = (await engine.dispatch({ method: 'GET', path: R })).body.result as { id: string; filter: { id: string } }[];
      expect((await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/legacy`, body: { id: first!.id, filter: first!.filter.id } })).status).toBe(200);
      await engine.close();
      // A fresh engine: the whole list is read from SQLite in one pass.
      engine = await open();
      const list = (query = '') => engine.dispatch({ method: 'GET', path: R, query: new URLSearchParams(`per_page=100${query}`) });
      const rules = (await list()).body.result as { id: string; action: string }[];
      expect(rules.at(-1)).toMatchObject({ id: first!.id, action: 'legacy_action' });
      expect(rules.slice(0, -1).every((r) => r.action !== 'legacy_action')).toBe(true);
      expect(JSON.stringify((await list()).body)).toBe(JSON.stringify((await list('&description=')).body));
      expect((await engine.dispatch({ method: 'GET', path: `${R}/${first!.id}` })).body.result).toEqual(rules.at(-1));
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a read', () => {
  it('takes no time stamp (a write takes its own before its handler runs)', async () => {
    const { h, R } = await zoneWithRules('clock.example', 3);
    const stamps = vi.spyOn(Date.prototype, 'toISOString');
    try {
      // Pages not read before: each runs its handler (no memo hit).
      for (const query of ['per_page=5&page=1', 'per_page=7&page=1', 'description=rule']) {
        expect((await h.engine.dispatch({ method: 'GET', path: R, query: new URLSearchParams(query) })).status).toBe(200);
      }
      expect(stamps).not.toHaveBeenCalled();
      const [first] = result<{ id: string }[]>(await h.api('GET', R));
      result(await h.api('PATCH', `${R}/${first!.id}`, { description: 'stamped' }));
      expect(stamps).toHaveBeenCalled();
    } finally {
      stamps.mockRestore();
    }
  });
});
