/**
 * Durability and transactions: a restart keeps every zone exactly as it was; a crashing handler
 * rolls its writes back (500, no stack trace); PITR bookmarks restore a zone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/index.js';
import { ApiError } from '../../src/engine/api-errors.js';
import { ok } from '../../src/engine/envelope.js';
import { resourcesWithZoneRoute, result, startHarness, type Harness } from './helpers.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.cleanup();
});

describe('many zones', () => {
  it('zone objects hibernate beyond the few kept live, and answer the same when used again', async () => {
    const h = await startHarness();
    harnesses.push(h);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const z = await h.zone(`z${i}.example`, 'enterprise');
      ids.push(z);
      result(await h.api('POST', `/zones/${z}/filters`, [{ expression: `ip.src eq 192.0.2.${i}`, ref: `f${i}` }]));
    }
    for (const [i, z] of ids.entries()) {
      const filters = result(await h.api('GET', `/zones/${z}/filters`)) as { expression: string; ref: string }[];
      expect(filters.map((f) => [f.ref, f.expression])).toEqual([[`f${i}`, `ip.src eq 192.0.2.${i}`]]);
    }
  });
});

describe('a read-only engine', () => {
  it('keeps one zone object live, as a plan reads each zone once, in turn; a writing engine keeps a few', async () => {
    const h = await startHarness();
    harnesses.push(h);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await h.zone(`r${i}.example`, 'enterprise'));
      result(await h.api('POST', `/zones/${ids[i]}/filters`, [{ expression: `ip.src eq 192.0.2.${i}`, ref: `f${i}` }]));
    }
    for (const z of ids) result(await h.api('GET', `/zones/${z}/filters`));
    expect(h.engine.liveZoneObjects).toBe(3);
    await h.stop();
    const reader = await Engine.open({ dir: h.dir, readOnly: true, logError: () => undefined });
    try {
      for (const [i, z] of ids.entries()) {
        const res = await reader.dispatch({ method: 'GET', path: `/zones/${z}/filters` });
        expect((res.body as { result: { ref: string }[] }).result.map((f) => f.ref)).toEqual([`f${i}`]);
      }
      expect(reader.liveZoneObjects).toBe(1);
    } finally {
      await reader.close();
    }
  });
});

describe('restart', () => {
  it('keeps zones, filters and rules exactly', async () => {
    const h1 = await startHarness();
    const z = await h1.zone('durable.example', 'business');
    result(await h1.api('POST', `/zones/${z}/firewall/rules`, [
      { filter: { expression: 'http.request.uri.path matches "^/api/"', description: 'api' }, action: 'block', priority: 4 },
      { filter: { expression: 'ip.src eq 192.0.2.1' }, action: 'allow', paused: true },
    ]));
    const before = {
      zones: result(await h1.api('GET', '/zones')),
      filters: result(await h1.api('GET', `/zones/${z}/filters`)),
      rules: result(await h1.api('GET', `/zones/${z}/firewall/rules`)),
    };
    await h1.stop();
    const h2 = await startHarness({ dir: h1.dir });
    harnesses.push(h2);
    expect(result(await h2.api('GET', '/zones'))).toEqual(before.zones);
    expect(result(await h2.api('GET', `/zones/${z}/filters`))).toEqual(before.filters);
    expect(result(await h2.api('GET', `/zones/${z}/firewall/rules`))).toEqual(before.rules);
    expect((await h2.engine.getZone('durable.example'))?.plan).toBe('business');
  });
});

describe('state directory lock', () => {
  it('lets one engine at a time use a directory, and takes over a stale lock', async () => {
    const h = await startHarness();
    harnesses.push(h);
    await expect(Engine.open({ dir: h.dir })).rejects.toThrow(/is in use by this process/);
    await h.stop();
    writeFileSync(join(h.dir, 'engine.lock'), '999999999');
    const again = await Engine.open({ dir: h.dir });
    await again.close();
  });
});

describe('transactions', () => {
  it('rolls back a handler that writes and then crashes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-engine-crash-'));
    const crashing = resourcesWithZoneRoute('crash', 'POST', (ctx) => {
      ctx.sql.exec("INSERT INTO filters (id, expression, canonical, created_on, modified_on) VALUES ('x', 'true', 'true', 'now', 'now')");
      const fail = (ctx.body as { fail?: string } | undefined)?.fail;
      if (fail === 'api') throw ApiError.of('invalidField', 'refused');
      if (fail === 'crash') throw new Error('boom');
      return ok(null);
    });
    const logged: string[] = [];
    const engine = await Engine.open({ dir, resources: crashing, logError: (m) => logged.push(m) });
    try {
      const zone = await engine.createZone('crash.example');
      const crash = await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/crash`, body: { fail: 'crash' } });
      expect(crash.status).toBe(500);
      expect(JSON.stringify(crash.body)).not.toContain('boom');
      expect(logged).toEqual([expect.stringMatching(new RegExp(`^POST \\S*crash on zone ${zone.id} failed$`))]);
      expect(crash.body.errors).toEqual([expect.objectContaining({ message: 'internal error: the request was not applied (details are in the server log)' })]);
      const refused = await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/crash`, body: { fail: 'api' } });
      expect(refused.status).toBe(400);
      const list = await engine.dispatch({ method: 'GET', path: `/zones/${zone.id}/filters` });
      expect(list.body.result).toEqual([]);
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('read memo', () => {
  it('gives in-process callers their own copies, and every write refreshes reads', async () => {
    const h = await startHarness();
    harnesses.push(h);
    const z = await h.zone('memo.example');
    result(await h.api('POST', `/zones/${z}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }]));
    const path = `/zones/${z}/filters`;
    const first = await h.engine.dispatch({ method: 'GET', path });
    // A list page is shared with the engine, frozen: the caller cannot change it.
    expect(() => { (first.body.result as { expression: string }[])[0]!.expression = 'mutated by the caller'; }).toThrow(TypeError);
    expect(() => (first.body.result as unknown[]).push({})).toThrow(TypeError);
    const second = await h.engine.dispatch({ method: 'GET', path });
    expect((second.body.result as { expression: string }[])[0]!.expression).toBe('ip.src eq 192.0.2.1');
    expect(second.body.result).toHaveLength(1);
    // Any other read answer is the caller's own copy.
    const migration = `/zones/${z}/waf_migration/status`;
    const status = await h.engine.dispatch({ method: 'GET', path: migration });
    expect(Object.isFrozen(status.body.result)).toBe(false);
    (status.body.result as Record<string, unknown>).waf_state = 'mutated by the caller';
    expect((await h.engine.dispatch({ method: 'GET', path: migration })).body.result).not.toMatchObject({ waf_state: 'mutated by the caller' });
    result(await h.api('POST', path, [{ expression: 'ip.src eq 192.0.2.2' }]));
    expect(result(await h.api('GET', path))).toHaveLength(2);
    // A refused write changes nothing, and reads stay right.
    expect((await h.api('POST', path, [{ expression: 'ip.src eq 192.0.2.2' }])).status).toBe(400);
    expect(result(await h.api('GET', path))).toHaveLength(2);
  });

  it('shares rule pages frozen through and through: their filters and products too', async () => {
    const h = await startHarness();
    harnesses.push(h);
    const z = await h.zone('memo-rules.example');
    result(await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: 'ip.src eq 192.0.2.1' }, action: 'bypass', products: ['waf'] }]));
    const path = `/zones/${z}/firewall/rules`;
    const [rule] = (await h.engine.dispatch({ method: 'GET', path })).body.result as { filter: { expression: string }; products: string[] }[];
    expect(() => { rule!.filter.expression = 'mutated by the caller'; }).toThrow(TypeError);
    expect(() => rule!.products.push('uaBlock')).toThrow(TypeError);
    const [again] = (await h.engine.dispatch({ method: 'GET', path })).body.result as { filter: { expression: string }; products: string[] }[];
    expect(again).toMatchObject({ filter: { expression: 'ip.src eq 192.0.2.1' }, products: ['waf'] });
  });
});

describe('PITR', () => {
  it('restores a zone to a bookmark', async () => {
    const h = await startHarness();
    harnesses.push(h);
    const z = await h.zone('pitr.example');
    result(await h.api('POST', `/zones/${z}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }]));
    const mark = await h.engine.bookmark(z);
    result(await h.api('POST', `/zones/${z}/filters`, [{ expression: 'ip.src eq 192.0.2.2' }]));
    expect((await h.api('GET', `/zones/${z}/filters`)).body.result_info!.total_count).toBe(2);
    await h.engine.restore(z, mark);
    const after = result(await h.api('GET', `/zones/${z}/filters`));
    expect(after.map((f: any) => f.expression)).toEqual(['ip.src eq 192.0.2.1']);
  });
});
