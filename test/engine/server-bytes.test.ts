/**
 * `zonewall serve` sends a cached list page's bytes as they are on a repeat read, and never a stale
 * page: a page whose rows a write changed is serialised anew. In strict mode too, where answers
 * are stripped copies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine, startServer, type RunningServer } from '../../src/engine/index.js';

const Token = 'zw-server-bytes-token-0123456789abcdefghij';
let dir: string;
let engine: Engine;
let server: RunningServer;
let zoneId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-server-bytes-'));
  engine = await Engine.open({ dir });
  zoneId = (await engine.createZone('bytes.example', { plan: 'enterprise' })).id;
  server = await startServer(engine, { port: 0, credentials: [{ type: 'token', token: Token, zones: '*' }] });
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, p: string, body?: unknown): Promise<{ status: number; text: string; length: string | null }> {
  const res = await fetch(`${server.url}${p}`, {
    method, headers: { authorization: `Bearer ${Token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, text: await res.text(), length: res.headers.get('content-length') };
}

describe('strict answers', () => {
  it('are the same object on a repeat read, so their bytes are kept too', async () => {
    const strictDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-server-bytes-strict-'));
    const strict = await Engine.open({ dir: strictDir, strict: true });
    try {
      const zone = (await strict.createZone('strict-bytes.example')).id;
      await strict.respond({ method: 'POST', path: `/zones/${zone}/firewall/rules`, body: [{ filter: { expression: 'ip.src eq 192.0.2.1' }, action: 'block' }] });
      const read = () => strict.respond({ method: 'GET', path: `/zones/${zone}/firewall/rules` });
      const first = await read();
      expect(await read()).toBe(first);
      expect(JSON.stringify(first.body)).not.toContain('locked');
    } finally {
      await strict.close();
      fs.rmSync(strictDir, { recursive: true, force: true });
    }
  });
});

describe('serve: bytes of cached pages', () => {
  it('repeats a page byte for byte, and serves the new page after a write', async () => {
    const list = `/zones/${zoneId}/filters?per_page=5&page=1`;
    await call('POST', `/zones/${zoneId}/filters`, [{ expression: 'ip.src eq 192.0.2.1', ref: 'a' }]);
    const first = await call('GET', list);
    const again = await call('GET', list);
    expect(again.text).toBe(first.text);
    expect(again.length).toBe(String(Buffer.byteLength(first.text)));
    expect((JSON.parse(first.text) as { result: unknown[] }).result).toHaveLength(1);

    const created = await call('POST', `/zones/${zoneId}/filters`, [{ expression: 'ip.src eq 192.0.2.2', ref: 'b' }]);
    expect(created.status).toBe(200);
    const after = await call('GET', list);
    expect((JSON.parse(after.text) as { result: { ref: string }[] }).result.map((f) => f.ref).sort()).toEqual(['a', 'b']);
    expect(after.length).toBe(String(Buffer.byteLength(after.text)));
  });

  it('answers each repeated target with its own page, whatever the query order (targets are split once)', async () => {
    for (let i = 0; i < 8; i++) await call('POST', `/zones/${zoneId}/filters`, [{ expression: `ip.src eq 198.51.100.${i}`, ref: `t${i}` }]);
    const targets = [`/zones/${zoneId}/filters?per_page=5&page=1`, `/zones/${zoneId}/filters?per_page=5&page=2`, `/zones/${zoneId}/filters?page=2&per_page=5`];
    const firsts = await Promise.all(targets.map(async (t) => (await call('GET', t)).text));
    for (const text of firsts) expect(JSON.parse(text!).success).toBe(true);
    expect(firsts[0]).not.toBe(firsts[1]);
    expect(firsts[2]).toBe(firsts[1]);
    for (let round = 0; round < 3; round++) {
      for (const [i, t] of targets.entries()) {
        const again = await call('GET', t);
        expect(again.text).toBe(firsts[i]);
        expect(again.length).toBe(String(Buffer.byteLength(again.text)));
      }
    }
  });

  it('assembles a page from its rules\' bytes: exactly the UTF-8 of the whole answer, any text in it', async () => {
    const list = `/zones/${zoneId}/firewall/rules?per_page=5&page=1`;
    const descriptions = ['café — 漢字', 'emoji 🚀 and "quotes" \\ and \u2028', 'plain'];
    for (const [i, description] of descriptions.entries()) {
      expect((await call('POST', `/zones/${zoneId}/firewall/rules`, [{ action: 'log', description, filter: { expression: `ip.src eq 192.0.2.${10 + i}` } }])).status).toBe(200);
    }
    for (let round = 0; round < 2; round++) {
      const sent = await call('GET', list);
      const answer = await engine.dispatch({ method: 'GET', path: `/zones/${zoneId}/firewall/rules`, query: new URLSearchParams('per_page=5&page=1') });
      expect(sent.text).toBe(JSON.stringify(answer.body));
      expect(sent.length).toBe(String(Buffer.byteLength(sent.text)));
      expect(JSON.parse(sent.text).result.map((r: { description?: string }) => r.description)).toEqual(expect.arrayContaining(descriptions));
      // A write to one of them: its page is assembled again from the unchanged rules' bytes and its new ones.
      const id = (JSON.parse(sent.text).result as { id: string; description?: string }[]).find((r) => r.description === 'plain')!.id;
      expect((await call('PATCH', `/zones/${zoneId}/firewall/rules/${id}`, { description: 'plain', paused: round === 0 })).status).toBe(200);
    }
  });
});

