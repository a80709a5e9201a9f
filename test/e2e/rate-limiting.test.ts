/**
 * Rate limiting rules end to end with the built CLI in a child process, as issue 29's "Done means"
 * says: `examples/rate-limiting.yaml` plans, applies, plans clean, exports and plans the export
 * clean (embedded engine, `zonewall serve` on both runtimes and `--strict`); its burst cases pass
 * offline and `--against-zone` (embedded engine, `zonewall serve` with the burst route on both
 * runtimes, and `serve --strict`, where the zone as read is evaluated locally). Deleting a
 * rule keeps the later rules' ids (terraform-provider-cloudflare #5921); a weakening needs --force;
 * an entry point made elsewhere is taken as it is, its unmanaged rule left alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, startServe, tempDir, v4, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';

const example = readFileSync(join(repoRoot, 'examples', 'rate-limiting.yaml'), 'utf8');
const cases = readFileSync(join(repoRoot, 'examples', 'tests', 'rate-limiting.tests.yaml'), 'utf8');
const Zone = 'ratelimit.example.com';
const Entry = 'rulesets/phases/http_ratelimit/entrypoint';

interface Rule { id: string; ref: string; action: string; ratelimit: Record<string, unknown> }

async function liveRules(stateDir: string): Promise<Rule[]> {
  return withEngine(stateDir, async (engine) => {
    const z = (await engine.getZone(Zone))!;
    return (await v4<{ rules: Rule[] }>(engine, 'GET', `/zones/${z.id}/${Entry}`)).rules;
  });
}

describe('rate limiting rules, CLI', () => {
  let t: ReturnType<typeof tempDir>;
  let state: string[];
  let file: string;
  beforeEach(() => {
    requireBuild();
    t = tempDir('ratelimit');
    state = ['--state-dir', join(t.dir, 'state')];
    file = writeManifest(t.dir, 'rate-limiting.yaml', example);
    writeManifest(t.dir, 'rate-limiting.tests.yaml', cases);
  });
  afterEach(() => t.cleanup());

  it('plans, applies, plans clean, exports a manifest that plans clean, and passes its bursts offline and against the zone', async () => {
    const first = await zonewall(['plan', file, ...state]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('+ rate_limiting_rule "login"');
    expect(first.stdout).toContain('Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect((await zonewall(['apply', file, '--auto-approve', ...state])).code).toBe(0);
    const rules = await liveRules(join(t.dir, 'state'));
    expect(rules.map((r) => [r.ref, r.ratelimit.characteristics])).toEqual([['login', ['cf.colo.id', 'ip.src']], ['api-per-key', ['cf.colo.id', 'http.request.headers["x-api-key"]']]]);
    expect((await zonewall(['plan', file, '--detailed-exitcode', ...state])).code).toBe(0);
    const exported = await zonewall(['export', '--zone', Zone, ...state]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('rate_limiting_rules:');
    expect(exported.stdout).not.toContain('cf.colo.id');
    const back = writeManifest(t.dir, 'exported.yaml', exported.stdout);
    expect((await zonewall(['plan', back, '--detailed-exitcode', ...state])).code).toBe(0);
    const offline = await zonewall(['test', file]);
    expect(offline.stdout).toContain('8 passed');
    expect(offline.code).toBe(0);
    const live = await zonewall(['test', file, '--against-zone', ...state]);
    expect(live.stdout).toContain('8 passed');
    expect(live.code).toBe(0);
  }, 120_000);

  it('reports a burst case that fails with what happened instead', async () => {
    writeManifest(t.dir, 'rate-limiting.tests.yaml', cases.replace('until: 650', 'until: 600'));
    const run = await zonewall(['test', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('request 6 (at 50 s) got block by rate_limiting_rules.login, until 650 s');
  }, 60_000);

  it('applies, plans clean, round-trips the export and runs the bursts against zonewall serve, with the burst route, in --strict mode without it, and on the workerd runtime', async () => {
    for (const args of [[], ['--strict'], ['--runtime', 'workerd']]) {
      const dir = join(t.dir, `served${args.join('')}`);
      // Remote providers never create zones: the service's owner does, before serving.
      await withEngine(dir, async (engine) => { await engine.createZone(Zone, { plan: 'enterprise' }); });
      const served = await startServe(dir, undefined, { args });
      try {
        const remote = (...a: string[]) => zonewall([...a, '--remote', served.url], { env: { ZONEWALL_API_TOKEN: served.token } });
        const applied = await remote('apply', file, '--auto-approve');
        expect(applied.code, applied.stderr).toBe(0);
        expect((await remote('plan', file, '--detailed-exitcode')).code).toBe(0);
        // The export round trip on this runtime: the exported manifest plans clean.
        const exported = await remote('export', '--zone', Zone);
        expect(exported.code, exported.stderr).toBe(0);
        expect(exported.stdout).toContain('rate_limiting_rules:');
        const back = writeManifest(t.dir, `exported${args.join('')}.yaml`, exported.stdout);
        expect((await remote('plan', back, '--detailed-exitcode')).code).toBe(0);
        const live = await remote('test', file, '--against-zone');
        expect(live.stdout).toContain('8 passed');
      } finally {
        await served.stop();
      }
    }
  }, 300_000);

  it('deletes a rule without touching the later ones, and asks --force for a weakening', async () => {
    expect((await zonewall(['apply', file, '--auto-approve', ...state])).code).toBe(0);
    const before = await liveRules(join(t.dir, 'state'));
    const withoutLogin = example.replace(/ {2}login:\n(?: {4}.*\n| {6}.*\n)+/, '');
    writeManifest(t.dir, 'rate-limiting.yaml', withoutLogin);
    const plan = await zonewall(['plan', file, ...state]);
    expect(plan.stdout).toContain('- rate_limiting_rule "login"');
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to replace, 1 to destroy.');
    expect((await zonewall(['apply', file, '--auto-approve', '--force', ...state])).code).toBe(0);
    const after = await liveRules(join(t.dir, 'state'));
    expect(after).toEqual([before[1]]);
    writeManifest(t.dir, 'rate-limiting.yaml', withoutLogin.replace('requests_per_period: 10', 'requests_per_period: 50'));
    const weaker = await zonewall(['apply', file, '--auto-approve', ...state]);
    expect(weaker.code).not.toBe(0);
    expect(weaker.stdout + weaker.stderr).toContain('it allows more: 10 per 10 s -> 50 per 10 s');
    expect((await zonewall(['apply', file, '--auto-approve', '--force', ...state])).code).toBe(0);
  }, 120_000);

  it('takes an entry point made elsewhere as it is and leaves its unmanaged rule alone', async () => {
    await withEngine(join(t.dir, 'state'), async (engine) => {
      const z = await engine.createZone(Zone, { plan: 'enterprise' });
      await v4(engine, 'PUT', `/zones/${z.id}/${Entry}`, { rules: [{ action: 'managed_challenge', expression: 'http.request.uri.path eq "/search"', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 100, mitigation_timeout: 0 } }] });
    });
    const plan = await zonewall(['plan', file, ...state]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('managed_challenge over 100 requests per 60 s when http.request.uri.path eq "/search"');
    expect((await zonewall(['apply', file, '--auto-approve', ...state])).code).toBe(0);
    const rules = await liveRules(join(t.dir, 'state'));
    expect(rules.map((r) => r.action)).toEqual(['managed_challenge', 'block', 'block']);
    expect((await zonewall(['plan', file, '--detailed-exitcode', ...state])).code).toBe(0);
  }, 120_000);
});
