/**
 * Durability of a migration in progress: `zonewall serve` stopped in the middle of a validation-mode
 * migration (killed outright, then stopped cleanly) comes back with the zone in `both` and every
 * setting intact: the previous WAF's package, group, rule and `waf` settings, the entry point with
 * its ids and versions, the firewall rules, and what the migration operations and the trace answer.
 * The migration then finishes normally.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/index.js';
import { spawnServe } from '../../helpers/serve-child.js';
import { send, type Reply } from '../helpers.js';
import { Ids, entrypointPath, execute } from './kit.js';

const dir = mkdtempSync(join(tmpdir(), 'zw-migration-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = fileURLToPath(new URL('../fixtures/cli.ts', import.meta.url));
const TOKEN = 'restart-test-token-42';

/** `zonewall serve` from source on the test's state directory; `url` once it listens (by readiness, bounded: `spawnServe`). */
function serve(): { kill(signal: NodeJS.Signals): Promise<number | null>; url: Promise<string> } {
  const served = spawnServe(['--import', 'tsx', fixture, 'serve', '--port', '0', '--state-dir', dir], {
    env: { PATH: process.env.PATH ?? '', ZONEWALL_SERVE_TOKEN: TOKEN },
  });
  return { url: served.url, kill: (signal) => served.stop(signal) };
}

function ok(reply: Reply): any {
  if (!reply.body.success) throw new Error(`${reply.status}: ${JSON.stringify(reply.body.errors)}`);
  return reply.body.result;
}

async function snapshot(base: string, z: string): Promise<Record<string, unknown>> {
  const get = async (path: string) => ok(await send(base, 'GET', path, undefined, { authorization: `Bearer ${TOKEN}` }));
  const P = `/zones/${z}/firewall/waf/packages`;
  return {
    status: await get(`/zones/${z}/waf_migration/status`),
    check: await get(`/zones/${z}/waf_migration/check?phase_two=1`),
    config: await get(`/zones/${z}/waf_migration/config?phase_two=1`),
    entrypoint: await get(entrypointPath(z)),
    versions: await get(`${entrypointPath(z)}/versions`),
    packages: await get(P),
    groups: await get(`${P}/${Ids.cloudflarePackage}/groups`),
    rules: await get(`${P}/${Ids.cloudflarePackage}/rules?per_page=100`),
    owaspRules: await get(`${P}/${Ids.owaspPackage}/rules?mode=off`),
    setting: await get(`/zones/${z}/settings/waf`),
    firewallRules: await get(`/zones/${z}/firewall/rules`),
    trace: ok(await send(base, 'POST', `/zones/${z}/trace`, { url: 'https://restart.example/?q=1', headers: { 'User-Agent': 'sqlmap/1.7' } }, { authorization: `Bearer ${TOKEN}` })),
  };
}

describe('a restart of zonewall serve during validation mode', () => {
  // Three servers start from source one after the other: generous on a loaded machine, and bounded.
  it('keeps the zone in both with every setting intact, and the migration can finish', { timeout: 240_000 }, async () => {
    const engine = await Engine.open({ dir });
    const z = (await engine.createZone('restart.example', { plan: 'enterprise' })).id;
    await engine.close();

    const first = serve();
    const base = await first.url;
    const call = async (method: string, path: string, body?: unknown) => ok(await send(base, method, path, body, { authorization: `Bearer ${TOKEN}` }));
    const P = `/zones/${z}/firewall/waf/packages`;
    await call('PATCH', `${P}/${Ids.owaspPackage}`, { sensitivity: 'medium', action_mode: 'block' });
    await call('PATCH', `${P}/${Ids.cloudflarePackage}/groups/${Ids.wordpressGroup}`, { mode: 'off' });
    await call('PATCH', `${P}/${Ids.cloudflarePackage}/rules/100532`, { mode: 'block' });
    await call('PATCH', `${P}/${Ids.owaspPackage}/rules/990012`, { mode: 'off' });
    await call('POST', `/zones/${z}/firewall/rules`, [{ action: 'bypass', products: ['waf'], filter: { expression: 'ip.src eq 192.0.2.9' } }]);
    const config = await call('GET', `/zones/${z}/waf_migration/config?phase_two=1`);
    await call('PUT', `${entrypointPath(z)}?waf_migration=validation&phase_two=1`, config);
    // Adjust the configuration during validation, as the seed suggests (a rule set to log).
    const entry = await call('GET', entrypointPath(z));
    entry.rules.push(execute(Ids.free, {}, false));
    entry.rules[1].action_parameters.overrides.rules.push({ id: '0242110ae62e44028a13bf4834780914', action: 'log' });
    await call('PUT', entrypointPath(z), { name: entry.name, rules: entry.rules });
    const before = await snapshot(base, z);
    expect(before.status).toMatchObject({ waf_state: 'both', migration_state: 'validation' });

    await first.kill('SIGKILL');
    const second = serve();
    const after = await snapshot(await second.url, z);
    expect(after).toEqual(before);
    expect(await second.kill('SIGTERM')).toBe(0);

    const third = serve();
    const base3 = await third.url;
    expect(await snapshot(base3, z)).toEqual(before);
    const finish = await send(base3, 'PUT', `${entrypointPath(z)}?waf_migration=pending&phase_two=1`, { rules: (before.entrypoint as { rules: unknown[] }).rules }, { authorization: `Bearer ${TOKEN}` });
    expect(ok(finish).version).toBe(String(Number((before.entrypoint as { version: string }).version)));
    expect(ok(await send(base3, 'GET', `/zones/${z}/waf_migration/status`, undefined, { authorization: `Bearer ${TOKEN}` }))).toMatchObject({ waf_state: 'new_only' });
    expect(await third.kill('SIGTERM')).toBe(0);
  });
});
