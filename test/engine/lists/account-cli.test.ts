/**
 * `zonewall engine account create|list` and `engine zone create --account` (in-process CLI): an
 * account is created with its plan, zones are created in it, and the zone shows its account.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';

const dir = mkdtempSync(join(tmpdir(), 'zw-account-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err += String(s); return true; });
  try {
    return { code: await main(['node', 'zonewall', ...args]), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('zonewall engine account', () => {
  it('creates and lists accounts, and creates zones in them', async () => {
    const created = await cli('engine', 'account', 'create', 'acme', '--plan', 'pro', '--state-dir', dir);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/created account acme \(id [0-9a-f]{32}, plan pro\)/);
    const again = await cli('engine', 'account', 'create', 'acme', '--state-dir', dir);
    expect([again.code, again.err]).toEqual([1, expect.stringContaining('account acme already exists')]);
    const list = JSON.parse((await cli('engine', 'account', 'list', '--state-dir', dir, '--json')).out) as { id: string; name: string; plan_tier: string }[];
    expect(list.map((a) => [a.name, a.plan_tier])).toEqual([['zonewall engine', 'enterprise'], ['acme', 'pro']]);
    const zone = await cli('engine', 'zone', 'create', 'acme.example', '--plan', 'pro', '--account', 'acme', '--state-dir', dir, '--json');
    expect(JSON.parse(zone.out)).toMatchObject({ name: 'acme.example', account: { id: list[1]!.id, name: 'acme' } });
    const missing = await cli('engine', 'zone', 'create', 'x.example', '--account', 'nobody', '--state-dir', dir);
    expect([missing.code, missing.err]).toEqual([1, expect.stringContaining('no account "nobody"')]);
    const text = (await cli('engine', 'account', 'list', '--state-dir', dir)).out;
    expect(text).toMatch(/^NAME\s+ID\s+PLAN\s+CREATED\n/);
  });
});
