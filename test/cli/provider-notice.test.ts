/**
 * Every command says on stderr, once, which provider it uses when the choice came from the
 * environment (ZONEWALL_API_URL left exported after the remote tour must not send later commands to
 * a remote API silently); not when `--remote` or `--state-dir` chose it. The URL's user:password
 * part, if any, is not shown. The built CLI against `zonewall serve`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root, serve, zonewall, type Served } from '../migrate/cli.js';

const Token = 'notice-token-0123456789abcdefghijklmnopqrstuv';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-notice-'));
const stateDir = path.join(dir, 'state');
let served: Served;
const manifest = path.join(root, 'examples', 'quickstart.yaml');
const notice = /zonewall: using the API at (\S+) \(from \$ZONEWALL_API_URL; pass --state-dir DIR or unset it for the embedded engine\)\n/g;

beforeAll(async () => {
  expect((await zonewall(['engine', 'zone', 'create', 'quickstart.example.com', '--state-dir', stateDir], { cwd: dir })).code).toBe(0);
  served = await serve(stateDir, Token, dir);
}, 60_000);

afterAll(async () => {
  await served?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the provider notice', () => {
  it('a plan whose API came from ZONEWALL_API_URL says so once on stderr; stdout is the plan', { timeout: 60_000 }, async () => {
    const r = await zonewall(['plan', manifest], { cwd: dir, env: { ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: Token } });
    expect(r.code, r.stderr).toBe(0);
    expect([...r.stderr.matchAll(notice)].map((m) => m[1])).toEqual([served.url]);
    expect(r.stdout).not.toContain('using the API');
  });

  it('migrate --from-terraform-state --write (two provider look-ups) still says it once', { timeout: 60_000 }, async () => {
    const state = path.join(root, 'test', 'fixtures', 'terraform', 'rulesets-v5.tfstate');
    const r = await zonewall(['migrate', path.join(dir, 'tf.yaml'), '--from-terraform-state', state, '--zone', 'quickstart.example.com', '--write'], { cwd: dir, env: { ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: Token } });
    expect(r.code, r.stderr).toBe(0);
    expect([...r.stderr.matchAll(notice)]).toHaveLength(1);
  });

  it('hides a user:password in the URL', { timeout: 60_000 }, async () => {
    const url = served.url.replace('http://', 'http://someone:s3cret@');
    const r = await zonewall(['plan', manifest], { cwd: dir, env: { ZONEWALL_API_URL: url, ZONEWALL_API_TOKEN: Token } });
    expect([...r.stderr.matchAll(notice)].map((m) => m[1])).toEqual([served.url]);
    expect(r.stderr).not.toContain('s3cret');
  });

  it('says nothing when --remote or --state-dir chose the provider', { timeout: 60_000 }, async () => {
    const remote = await zonewall(['plan', manifest, '--remote', served.url], { cwd: dir, env: { ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: Token } });
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stderr).not.toMatch(notice);
    const local = await zonewall(['plan', manifest, '--state-dir', path.join(dir, 'other')], { cwd: dir, env: { ZONEWALL_API_URL: served.url } });
    expect(local.stderr).not.toMatch(notice);
  });
});
