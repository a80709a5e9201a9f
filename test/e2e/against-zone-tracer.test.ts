/**
 * `zonewall test examples/custom-rules.yaml --against-zone` through the service's request tracer
 * (issue 33), on both runtimes of `zonewall serve` (built-in and workerd), normal and strict: the
 * real CLI (built, as a child process) applies the example over HTTP, then runs its cases; a
 * recording proxy in front of the server shows every case went through the request tracer, in one
 * call of zonewall's batch route (`.../request-tracer/trace/batch`), or, under strict, where that
 * route answers 404, one call of `POST /accounts/{account_id}/request-tracer/trace` each; none
 * through the engine's own trace route.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, zonewall } from '../helpers/e2e-cli.js';
import { TOKEN, startHarness, startWorkerdHarness, type HttpHarness } from '../engine/helpers.js';

/** A proxy that forwards every request to `target` and records `METHOD path`. */
async function recordingProxy(target: string): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const base = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
      const init: RequestInit = { method: req.method ?? 'GET', headers };
      if (chunks.length > 0) init.body = Buffer.concat(chunks);
      fetch(`${base.origin}${req.url}`, init).then(async (r) => {
        const body = Buffer.from(await r.arrayBuffer());
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      }, (err: unknown) => { res.writeHead(502); res.end(String(err)); });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}${base.pathname}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const runtimes = [
  ['built-in', false], ['built-in', true], ['workerd', false],
] as const;

describe.each(runtimes)('test --against-zone through the request tracer (%s, strict %s)', (runtime, strict) => {
  let h: HttpHarness;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  beforeAll(async () => {
    requireBuild();
    h = runtime === 'workerd' ? await startWorkerdHarness({ strict }) : await startHarness({ strict });
    await h.zone('custom.example.com', 'business');
    proxy = await recordingProxy(h.server.url);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await h?.cleanup();
  });

  it('applies examples/custom-rules.yaml and passes its cases, every one traced by the tracer (its batch, or one call each under strict)', async () => {
    const env = { ZONEWALL_API_URL: proxy.url, ZONEWALL_API_TOKEN: TOKEN };
    const applied = await zonewall(['apply', 'examples/custom-rules.yaml', '--auto-approve'], { env });
    expect(applied.stderr.split('\n').filter((l) => l.startsWith('error'))).toEqual([]);
    expect(applied.code).toBe(0);
    proxy.seen.length = 0;
    const run = await zonewall(['test', 'examples/custom-rules.yaml', '--against-zone'], { env });
    expect(run.stdout).toContain('against the live zone');
    expect(run.stdout).toContain('6 passed, 0 failed');
    expect(run.code).toBe(0);
    const traced = proxy.seen.filter((s) => /^POST \/client\/v4\/accounts\/[0-9a-f]{32}\/request-tracer\/trace$/.test(s));
    const batches = proxy.seen.filter((s) => /^POST \/client\/v4\/accounts\/[0-9a-f]{32}\/request-tracer\/trace\/batch$/.test(s));
    // zonewall's batch route takes every case in one call; under --strict (the real API's routes
    // only) it answers 404 and each case is one call of the tracer route.
    expect(batches).toHaveLength(1);
    expect(traced).toHaveLength(strict ? 6 : 0);
    expect(proxy.seen.filter((s) => s.endsWith('/trace') && s.includes('/zones/'))).toEqual([]);
  }, 120_000);
});
