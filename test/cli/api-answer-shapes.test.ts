/**
 * A v4 API whose answers are not of the shapes zonewall reads: a list whose `result` is not an
 * array, a rule without `id`, a field of another type. They became a TypeError, a stack trace or,
 * worse, a plan built on nothing (Page Rules and lists that were not lists read as none). Now one
 * line naming the call and the field, exit 1. The real CLI talks to the real `zonewall serve`
 * through a real HTTP proxy on 127.0.0.1 that corrupts one answer, the one a real server cannot
 * give malformed.
 */
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, startServe, tempDir, withEngine, writeManifest, zonewall, type Served } from '../helpers/e2e-cli.js';

const Zone = 'shapes.example.com';
let tmp: ReturnType<typeof tempDir>;
let served: Served;
let proxy: Server;
let proxyUrl: string;
let zoneId: string;
let manifest: string;
/** The corruption of the answer to `GET <path>` (path without the query), else undefined. */
let corrupt: ((path: string, body: { result: unknown }) => void) | undefined;

beforeAll(async () => {
  requireBuild();
  tmp = tempDir('api-shapes');
  const state = join(tmp.dir, 'state');
  zoneId = await withEngine(state, async (engine) => (await engine.createZone(Zone, { plan: 'enterprise' })).id);
  served = await startServe(state);
  const target = new URL(served.url);
  proxy = createServer((req, res) => {
    const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let text = Buffer.concat(chunks).toString();
        if (req.method === 'GET' && corrupt !== undefined && answer.statusCode === 200) {
          const body = JSON.parse(text) as { result: unknown };
          corrupt(new URL(req.url!, 'http://x').pathname, body);
          text = JSON.stringify(body);
        }
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
        res.writeHead(answer.statusCode ?? 502, headers).end(text);
      });
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}${target.pathname}`;
  manifest = writeManifest(tmp.dir, 'zone.yaml', `zone: ${Zone}\nplan: enterprise\nfilters:\n  f:\n    expression: ip.src eq 192.0.2.1\nfirewall_rules:\n  a:\n    action: block\n    filter: f\n  b:\n    action: log\n    filter: f\ncustom_rules:\n  c:\n    action: block\n    expression: http.host eq "x"\n`);
  corrupt = undefined;
  const applied = await zonewall(['apply', manifest, '--auto-approve', '--remote', proxyUrl], { env: { ZONEWALL_API_TOKEN: served.token } });
  if (applied.code !== 0) throw new Error(applied.stderr + applied.stdout);
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  await served?.stop();
  tmp?.cleanup();
});

const plan = () => zonewall(['plan', manifest, '--remote', proxyUrl], { env: { ZONEWALL_API_TOKEN: served.token } });
const at = (suffix: string) => (path: string) => path.endsWith(suffix);

describe('an API answer of the wrong shape', () => {
  const cases: [string, (path: string) => boolean, (result: unknown) => unknown, (id: string) => string][] = [
    ['a firewall rule without id', at('/firewall/rules'), (r) => (r as Record<string, unknown>[]).map((x, i) => (i === 1 ? { ...x, id: undefined } : x)),
      (id) => `the API answered GET /zones/${id}/firewall/rules (page 1) with a result zonewall cannot read: result[1].id is missing`],
    ['a filters list that is an object', at('/filters'), (r) => ({ items: r }),
      (id) => `the API answered GET /zones/${id}/filters with a result zonewall cannot read: result is an object, expected a list`],
    ['a custom rule whose expression is a number', at('/phases/http_request_firewall_custom/entrypoint'), (r) => ({ ...(r as object), rules: (r as { rules: object[] }).rules.map((x) => ({ ...x, expression: 7 })) }),
      (id) => `the API answered GET /zones/${id}/rulesets/phases/http_request_firewall_custom/entrypoint with a result zonewall cannot read: result.rules[0].expression is a number, expected a string`],
    ['a zone found by name without its name', at('/zones'), (r) => (r as Record<string, unknown>[]).map((x) => ({ ...x, name: undefined })),
      () => 'the API answered GET /zones with a result zonewall cannot read: result[0].name is missing'],
    ['a firewall rule whose filter is a string', at('/firewall/rules'), (r) => (r as Record<string, unknown>[]).map((x) => ({ ...x, filter: 'f' })),
      (id) => `the API answered GET /zones/${id}/firewall/rules (page 1) with a result zonewall cannot read: result[0].filter is a string, expected an object`],
  ];
  // The migration status is read for the previous WAF: `migrate status` reads it on its own.
  it('a migration status whose waf_state is a number (migrate status): one line, exit 1', async () => {
    corrupt = (path, body) => { if (path.endsWith('/waf_migration/status')) body.result = { ...(body.result as object), waf_state: 3 }; };
    try {
      const run = await zonewall(['migrate', 'status', '--zone', Zone, '--remote', proxyUrl], { env: { ZONEWALL_API_TOKEN: served.token } });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`error: the API answered GET /zones/${zoneId}/waf_migration/status with a result zonewall cannot read: result.waf_state is a number, expected a string\n`);
    } finally {
      corrupt = undefined;
    }
  }, 30_000);

  for (const [name, match, change, message] of cases) {
    it(`${name}: one line naming the call and the field, exit 1`, async () => {
      corrupt = (path, body) => { if (match(path)) body.result = change(body.result); };
      try {
        const run = await plan();
        expect(run.code).toBe(1);
        const out = run.stdout + run.stderr;
        expect(out).toContain(`error [ERR_PROVIDER]: ${message(zoneId)}\n`);
        expect(out).not.toMatch(/\n\s+at .+:\d+:\d+/);
        expect(out).not.toMatch(/TypeError|internal error/);
      } finally {
        corrupt = undefined;
      }
    }, 30_000);
  }

  it('the same zone through the proxy, unchanged, plans clean', async () => {
    const run = await zonewall(['plan', manifest, '--remote', proxyUrl, '--detailed-exitcode'], { env: { ZONEWALL_API_TOKEN: served.token } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, 30_000);
});
