/**
 * A WAF migration step cannot be undone on the service ("going back is not possible", seed 002):
 * on the embedded engine, `zonewall rollback` must not restore a zone to before its last apply once
 * a step was taken after (or by) that apply, or the zone would run the previous WAF again. The real
 * CLI as a child process, on an engine state directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspace, type Workspace } from './cli.js';

const manifest = `zone: shop.example
plan: enterprise
# the previous WAF, tuned
previous_waf:
  packages:
    owasp: { sensitivity: low, action_mode: block }
`;

let ws: Workspace | undefined;
afterEach(() => { ws?.remove(); ws = undefined; });

function open(): Workspace {
  ws = workspace('migrate-rollback', (r, what) => expect(r.code, what).toBe(0));
  fs.writeFileSync(path.join(ws.dir, 'zone.yaml'), manifest);
  return ws;
}

async function state(w: Workspace): Promise<string> {
  return (await w.ok('migrate', 'status', '--zone', 'shop.example')).split('\n').find((l) => l.includes('migration:')) ?? '';
}

describe('rollback after a migration step', () => {
  it('migrate --mode: the apply before the step can no longer be rolled back (it would undo the step)', async () => {
    const w = open();
    await w.ok('engine', 'zone', 'create', 'shop.example', '--plan', 'enterprise');
    await w.ok('apply', 'zone.yaml', '--auto-approve');
    const step = await w.ok('migrate', 'zone.yaml', '--mode', 'validation', '--write');
    expect(step).toContain('zonewall rollback can no longer undo the apply of');
    expect(await state(w)).toContain('both WAFs');
    const rollback = await w.run('rollback', '--zone', 'shop.example', '--auto-approve');
    expect(rollback.code).toBe(1);
    expect(rollback.stderr).toContain('no apply to roll back for zone shop.example');
    expect(await state(w)).toContain('both WAFs');
  }, 120_000);

  it('apply taking the step (waf_migration ahead of the zone): nothing to roll back, and the zone stays migrated', async () => {
    const w = open();
    await w.ok('engine', 'zone', 'create', 'shop.example', '--plan', 'enterprise');
    await w.ok('apply', 'zone.yaml', '--auto-approve');
    await w.ok('migrate', 'zone.yaml', '--write');
    expect(fs.readFileSync(path.join(w.dir, 'zone.yaml'), 'utf8')).toContain('waf_migration: validation');
    const applied = await w.ok('apply', 'zone.yaml', '--auto-approve', '--force');
    expect(applied).not.toContain('zonewall rollback');
    expect(await state(w)).toContain('both WAFs');
    const rollback = await w.run('rollback', '--zone', 'shop.example', '--auto-approve');
    expect(rollback.code).toBe(1);
    expect(await state(w)).toContain('both WAFs');
  }, 120_000);
});
