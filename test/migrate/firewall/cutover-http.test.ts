/**
 * The cutover through `zonewall serve` over HTTP (`--remote`, the token from the environment): a
 * zone of 200 firewall rules over 150 shared filters applied remotely, cut over in three steps, the
 * next plan empty, and the served zone holding no filter or firewall rule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, zonewall, type Served } from '../cli.js';
import { generatedZone } from '../../../support/generated-zone.js';

const token = 'e2e-cutover-token-0123456789';
let dir: string;
let served: Served;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-cutover-http-'));
  served = await serve(path.join(dir, 'served'), token, dir);
});
afterAll(async () => {
  await served.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function api(method: string, p: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${served.url}${p}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json() as { success: boolean; result: unknown };
  if (!json.success) throw new Error(`${method} ${p}: ${JSON.stringify(json)}`);
  return json.result;
}

it('cuts a 200-rule zone over through the HTTP provider; the next plan is empty and nothing of the firewall is left', { timeout: 240_000 }, async () => {
  const zone = await api('POST', '/zones', { name: 'remote.example.com', plan_tier: 'enterprise' }) as { id: string };
  const file = path.join(dir, 'zone.yaml');
  fs.writeFileSync(file, generatedZone({ rules: 200, filters: 150, zone: 'remote.example.com' }));
  const env = { ZONEWALL_API_TOKEN: token };
  const remote = ['--remote', served.url];
  expect((await zonewall(['apply', file, ...remote, '--auto-approve'], { cwd: dir, env })).code).toBe(0);
  const cut = await zonewall(['migrate', 'firewall-cutover', file, ...remote, '--auto-approve'], { cwd: dir, env });
  expect(cut.code, cut.stderr).toBe(0);
  expect(cut.stdout).toContain('every verdict is the same');
  expect(cut.stdout).toContain('Cutover done: remote.example.com runs 200 converted custom rule(s)');
  expect((await zonewall(['plan', file, ...remote, '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  expect(await api('GET', `/zones/${zone.id}/filters?per_page=100`)).toEqual([]);
  expect(await api('GET', `/zones/${zone.id}/firewall/rules?per_page=100`)).toEqual([]);
});
