/**
 * A write the state directory refuses after the zone's files opened (here: a file size limit,
 * `ulimit -f`, which fails the WAL's write past it with EFBIG, as a full disk or a failing file
 * system would): it was said as storage's reset ("Object was reset and rolled back ... disk I/O
 * error: SQLITE_IOERR_WRITE", a log line with a stack trace, HTTP 500, "outcome unknown"). Now it
 * is the write refused: which file, why, and that nothing was written; the next plan shows the
 * same changes. Runs as any user: the limit needs no privilege.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputOf, repoRoot, requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';
import { watchServe } from '../helpers/serve-child.js';

let temp: ReturnType<typeof tempDir>;
let state: string;
let manifest: string;

/** The CLI with writes past `kib` KiB refused (bash's `ulimit -f` counts KiB; dash's, 512-byte blocks). */
function spawnLimited(kib: number, args: string[], env: NodeJS.ProcessEnv = {}) {
  const cli = [process.execPath, join(repoRoot, 'bin', 'zonewall.js'), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawn('/bin/bash', ['-c', `ulimit -f ${kib} && exec ${cli}`], { cwd: temp.dir, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}
function limited(kib: number, args: string[]) {
  return outputOf(spawnLimited(kib, args));
}

beforeAll(async () => {
  requireBuild();
  temp = tempDir('state-write');
  state = join(temp.dir, 'state');
  const rules = Array.from({ length: 200 }, (_, i) => `  r${i}:\n    action: block\n    expression: http.host eq "host${i}-${'y'.repeat(200)}.example"\n`).join('');
  manifest = writeManifest(temp.dir, 'big.yaml', `zone: write.example.com\nplan: enterprise\ncustom_rules:\n${rules}`);
  const created = await zonewall(['engine', 'zone', 'create', 'write.example.com', '--plan', 'enterprise', '--state-dir', state]);
  if (created.code !== 0) throw new Error(created.stderr);
}, 60_000);
afterAll(() => temp.cleanup());

describe('a write refused after the zone opened', () => {
  it('apply says which file refused the write and that it was rolled back; the next plan shows the same changes', async () => {
    const before = await zonewall(['plan', manifest, '--state-dir', state]);
    expect(before.stdout).toContain('Plan: 200 to add');
    const applied = await limited(48, ['apply', manifest, '--auto-approve', '--state-dir', state]);
    const objects = join(state, 'zones', 'objects');
    const file = join(objects, readdirSync(objects).find((n) => n.endsWith('.sqlite'))!);
    expect(applied.code).toBe(1);
    // The apply's report (what was applied before the failure: nothing) is its output, as for any failed write.
    expect(applied.stdout).toContain(`Apply to write.example.com stopped in phase custom_rules: cannot write the state directory ${state}: writing ${file} failed: disk I/O error (SQLITE_IOERR_WRITE); nothing was written (the change was rolled back)\n`);
    expect(applied.stdout).toContain('failed (not applied)');
    // The rollback hint names the state directory the apply used: without it, rollback reads ./.zonewall.
    expect(applied.stdout).toContain(`zonewall rollback --zone write.example.com --state-dir ${state} restores the zone to before this apply`);
    expect(applied.stdout + applied.stderr).not.toMatch(/Object was reset|outcome unknown|HTTP 500|^\s+at /m);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).not.toContain('Apply complete');
    const after = await zonewall(['plan', manifest, '--state-dir', state]);
    expect(after.stdout).toBe(before.stdout);
    // Without the limit, the same apply goes through.
    const again = await zonewall(['apply', manifest, '--auto-approve', '--state-dir', state]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Apply complete for write.example.com: 200 added');
  }, 60_000);

  it('rollback whose restore the file system refuses: one line, exit 1 (was "internal error: Error: EFBIG"); run again, it restores', async () => {
    // The zone has the 200 rules of the apply above.
    const rolled = await limited(48, ['rollback', '--zone', 'write.example.com', '--auto-approve', '--state-dir', state]);
    const objects = join(state, 'zones', 'objects');
    const file = join(objects, readdirSync(objects).find((n) => n.endsWith('.sqlite'))!);
    expect(rolled.stderr).toBe(`error: cannot write the state directory ${state}: writing ${file} failed: file too large; a restore (rollback) under way stays requested: the next command that writes this zone finishes it\n`);
    expect(rolled.code).toBe(1);
    // A reader meets the restore waiting: one line (was engine log lines with stack traces and an HTTP 500).
    const pending = `${file} has a point-in-time restore pending, which only a command that writes applies: run apply (or serve) on this state directory first`;
    const exported = await zonewall(['export', '--zone', 'write.example.com', '--state-dir', state]);
    expect(exported.stderr).toBe(`error: ${pending}\n`);
    expect(exported.code).toBe(1);
    const planned = await zonewall(['plan', manifest, '--state-dir', state]);
    expect(planned.stdout + planned.stderr).toContain(`error [ERR_STATE_RESTORE_PENDING]: ${pending}\n`);
    expect(planned.stdout + planned.stderr).not.toMatch(/^\s+at |HTTP 500|zonewall engine:/m);
    expect(planned.code).toBe(1);
    const again = await zonewall(['rollback', '--zone', 'write.example.com', '--auto-approve', '--state-dir', state]);
    expect(again.code, again.stderr).toBe(0);
    expect((await zonewall(['plan', manifest, '--state-dir', state])).stdout).toContain('Plan: 200 to add');
  }, 60_000);

  it('a write refused while the engine opens its files (SQLite writes there too) is one line, not "internal error: SqliteError"', async () => {
    const applied = await limited(8, ['apply', manifest, '--auto-approve', '--state-dir', state]);
    expect(applied.stderr).toMatch(new RegExp(`^error: cannot write the state directory ${state.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: writing \\S+ failed: disk I/O error \\(SQLITE_IOERR_\\w+\\); nothing was written\n$`));
    expect(applied.code).toBe(1);
    expect(applied.stdout).toBe('');
  }, 60_000);
});

describe('serve meets a write refused after the zone opened', () => {
  it('answers a clean 500 envelope, logs one line naming the file, no stack trace; the write was rolled back', async () => {
    const dir = join(temp.dir, 'served');
    const created = await zonewall(['engine', 'zone', 'create', 'served.example.com', '--plan', 'enterprise', '--state-dir', dir]);
    expect(created.code, created.stderr).toBe(0);
    const token = 'write-failure-token-0123456789abcdefghij';
    const child = spawnLimited(48, ['serve', '--port', '0', '--state-dir', dir], { ZONEWALL_SERVE_TOKEN: token });
    const server = watchServe(child);
    try {
      const url = await server.url;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const zones = await (await fetch(`${url}/zones?name=served.example.com`, { headers })).json() as { result: { id: string }[] };
      const id = zones.result[0]!.id;
      const entrypoint = `${url}/zones/${id}/rulesets/phases/http_request_firewall_custom/entrypoint`;
      const rules = Array.from({ length: 200 }, (_, i) => ({ action: 'block', expression: `http.host eq "h${i}-${'y'.repeat(200)}"` }));
      const res = await fetch(entrypoint, { method: 'PUT', headers, body: JSON.stringify({ rules }) });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ result: null, success: false, messages: [], errors: [{ code: 10500, message: 'internal error: the request was not applied: the server could not write its state directory (the server log names the path)' }] });
      // Rolled back: the phase still has no entrypoint; reads are answered.
      expect((await fetch(entrypoint, { headers })).status).toBe(404);
      await server.stop();
      const exit = await server.closed;
      const objects = join(dir, 'zones', 'objects');
      const file = join(objects, readdirSync(objects).find((n) => n.endsWith('.sqlite'))!);
      const lines = exit.err.split('\n').filter((l) => l.includes('/entrypoint'));
      expect(lines).toEqual([`zonewall serve: PUT /client/v4/zones/${id}/rulesets/phases/http_request_firewall_custom/entrypoint failed: cannot write the state directory ${dir}: writing ${file} failed: disk I/O error (SQLITE_IOERR_WRITE); nothing was written (the change was rolled back)`]);
      expect(exit.err).not.toMatch(/^\s+at |Object was reset/m);
    } finally {
      await server.stop('SIGKILL');
    }
  }, 60_000);
});
