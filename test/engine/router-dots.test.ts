/**
 * Every path segment is data: `.`/`..`, plain or percent-encoded, in any parameter of any route
 * family, reaches the handler as an id (and so finds nothing) instead of climbing to the parent
 * resource. Before, `DELETE /zones/Z/filters/%2e%2e` deleted the zone. Also: a client that drops
 * its upload is logged as one line, not as an internal failure.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine, startServer } from '../../src/engine/index.js';
import { validateExprRoutes } from '../../src/engine/filters/validate-expr.js';
import { resources } from '../../src/engine/resources.js';
import { Router, type RouteLike } from '../../src/engine/router.js';
import { zoneRoutes } from '../../src/engine/zones/routes.js';
import { TOKEN, result, startHarness, startWorkerdHarness, type HttpHarness } from './helpers.js';

const allRoutes: RouteLike[] = [...zoneRoutes, ...validateExprRoutes, ...resources.flatMap((m) => m.routes)]
  .map((r) => ({ method: r.method, pattern: r.pattern }));
const dots: [string, string][] = [['..', '..'], ['.', '.'], ['%2e%2e', '..'], ['%2E%2e', '..'], ['%2e', '.'], ['.%2e', '..']];

describe('router: dot segments are data', () => {
  it('matches every route of every family with a dot id in each parameter, the id delivered as is', () => {
    const router = new Router(allRoutes);
    const withParams = allRoutes.filter((r) => r.pattern.includes(':'));
    expect(withParams.length).toBeGreaterThan(20);
    for (const route of withParams) {
      const segments = route.pattern.split('/');
      segments.forEach((seg, i) => {
        if (!seg.startsWith(':')) return;
        for (const [raw, decoded] of dots) {
          const path = segments.map((s, j) => (j === i ? raw : s.startsWith(':') ? 'id0123' : s)).join('/');
          const match = router.match(route.method, path);
          expect(match, `${route.method} ${path}`).toMatchObject({ kind: 'found', route: { pattern: route.pattern }, params: { [seg.slice(1)]: decoded } });
        }
      });
    }
  });

  it('does not merge empty segments', () => {
    const router = new Router(allRoutes);
    expect(router.match('GET', '/zones//filters').kind).toBe('none');
    expect(router.match('GET', '/zones/z/filters/').kind).toBe('found');
  });
});

/** One request with the path sent byte for byte (undici and fetch resolve dot segments first). */
function raw(port: number, method: string, path: string): Promise<{ status: number; body: { success: boolean } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: `/client/v4${path}`, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { success: boolean } }));
    });
    req.on('error', reject);
    req.end();
  });
}

const runtimes: [string, typeof startWorkerdHarness][] = [['built-in runtime', startHarness], ['workerd runtime', startWorkerdHarness]];

for (const [runtime, start] of runtimes) {
  describe(`HTTP, ${runtime}: dot segments never reach another resource`, () => {
    let h: HttpHarness;
    const port = (): number => Number(new URL(h.server.url).port);
    let zone: string;
    beforeAll(async () => {
      h = await start();
      zone = await h.zone('dots.example');
      result(await h.api('POST', `/zones/${zone}/filters`, [{ expression: 'ip.src eq 192.0.2.1', ref: 'one' }]));
    });
    afterAll(async () => { await h.cleanup(); });

    it('DELETE /zones/Z/filters/.. and %2e%2e find no filter and leave the zone and its filters alone', async () => {
      for (const id of ['..', '%2e%2e', '%2E%2E', '.%2e']) {
        const reply = await raw(port(), 'DELETE', `/zones/${zone}/filters/${id}`);
        expect(reply.status, id).toBe(404);
        expect((await h.api('GET', `/zones/${zone}`)).status).toBe(200);
        expect(result(await h.api('GET', `/zones/${zone}/filters`))).toHaveLength(1);
      }
    });

    it('GET and DELETE with a dot zone id or rule id are 404s, never the parent', async () => {
      for (const path of [`/zones/${zone}/firewall/rules/%2e%2e`, `/zones/${zone}/rulesets/%2e%2e`, `/zones/%2e%2e`, `/zones/.`, `/zones/${zone}/filters/.`]) {
        const reply = await raw(port(), 'GET', path);
        expect(reply.status, path).toBeGreaterThanOrEqual(400);
        expect(reply.body.success).toBe(false);
      }
      expect((await raw(port(), 'DELETE', `/zones/${zone}/firewall/rules/..`)).status).toBeGreaterThanOrEqual(400);
      expect((await h.api('GET', `/zones/${zone}`)).status).toBe(200);
    });
  });
}

describe('HTTP: a client that drops its upload', () => {
  it('is logged as one line, not as an internal failure with a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-drop-'));
    const errors: string[] = [];
    const notices: string[] = [];
    const engine = await Engine.open({ dir, logError: () => {} });
    const server = await startServer(engine, {
      port: 0, credentials: [{ type: 'token', token: TOKEN, zones: '*' }],
      logError: (m) => errors.push(m), logNotice: (m) => notices.push(m),
    });
    try {
      const { port } = server;
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`POST /client/v4/zones/z/filters HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n[{"expr`);
          setTimeout(() => { socket.destroy(); resolve(); }, 100);
        });
      });
      for (let i = 0; i < 100 && notices.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(errors).toEqual([]);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/^POST \/client\/v4\/zones\/z\/filters: the client closed the connection/);
      expect(notices[0]).not.toContain('\n');
    } finally {
      await server.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
