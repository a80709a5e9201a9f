/**
 * A state directory holding files this user cannot use and does not own (typically left by a
 * `sudo zonewall ...`): a write met them deep in the engine (`attempt to write a readonly
 * database`, HTTP 500 on the zone's line, a stack trace on stderr), a read met SQLite's or Node's
 * bare error. Now one line naming the file, its owner and mode, and what to do, exit 1, before
 * the engine opens anything. Files of its own zonewall makes usable itself (0600), so they pass.
 *
 * Root can write any file, so as root the CLI runs as `nobody` (uid 65534) against root's files;
 * as another user, the check runs in-process as if the files were another user's.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertStateDirUsable } from '../../src/cli/state-dir-access.js';
import { findBlocked } from '../../src/storage/index.js';
import { outputOf, repoRoot, requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';
import { watchServe } from '../helpers/serve-child.js';

const Nobody = 65534;
const isRoot = process.getuid?.() === 0;
let temp: ReturnType<typeof tempDir>;
let state: string;
let manifest: string;
let sqlite: string;

/** Every path under `dir`, itself included. */
function walk(dir: string): string[] {
  return [dir, ...readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))];
}

/** The built CLI spawned in `cwd` with `env` (and `as`: another user's uid and gid). */
function spawnCli(args: string[], cwd: string, env: NodeJS.ProcessEnv, as: { uid?: number; gid?: number } = {}) {
  return spawn(process.execPath, [join(repoRoot, 'bin', 'zonewall.js'), ...args], { cwd, env, ...as, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The CLI as `nobody`, with the caller's environment minus zonewall's settings. */
function asNobody(args: string[]) {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: temp.dir };
  return outputOf(spawnCli(args, temp.dir, env, { uid: Nobody, gid: Nobody }));
}

beforeAll(async () => {
  requireBuild();
  temp = tempDir('state-access');
  state = join(temp.dir, 'state');
  manifest = writeManifest(temp.dir, 'z.yaml', 'zone: access.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: http.host eq "x"\n');
  const created = await zonewall(['engine', 'zone', 'create', 'access.example.com', '--plan', 'business', '--state-dir', state]);
  if (created.code !== 0) throw new Error(created.stderr);
  const objects = join(state, 'zones', 'objects');
  sqlite = join(objects, readdirSync(objects).find((n) => n.endsWith('.sqlite'))!);
  // The folders writable by everyone (the case: a writable directory), the files read-only to others.
  for (const path of [temp.dir, ...walk(state)]) chmodSync(path, statSync(path).isDirectory() ? 0o777 : 0o644);
  chmodSync(manifest, 0o644);
}, 60_000);
afterAll(() => temp.cleanup());

describe('a state directory with files of another user', () => {
  it('apply: one line naming the file, its owner and mode, exit 1, nothing written', async () => {
    if (isRoot) {
      const before = statSync(sqlite).mtimeMs;
      const run = await asNobody(['apply', manifest, '--auto-approve', '--state-dir', state]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`error: cannot write the state directory ${state}: the file ${sqlite} (mode 0644, owner uid 0) is not writable by this user (uid ${Nobody}): run zonewall as its owner, or give the files to this user (chown -R ${Nobody} ${state}), or pass another --state-dir\n`);
      expect(run.stdout).not.toMatch(/Apply|HTTP 500/);
      expect(statSync(sqlite).mtimeMs).toBe(before);
    } else {
      // Not root: the same files as if another user owned them.
      chmodSync(sqlite, 0o444);
      const uid = process.getuid!() + 1;
      expect(() => assertStateDirUsable(state, { writes: true }, uid)).toThrow(`cannot write the state directory ${state}: the file ${sqlite} (mode 0444, owner uid ${process.getuid!()}) is not writable by this user (uid ${uid})`);
      chmodSync(sqlite, 0o644);
    }
  }, 30_000);

  it('plan (reads only) passes when the files are readable, and says so in one line when one is not', async () => {
    if (isRoot) {
      const plan = await asNobody(['plan', manifest, '--state-dir', state]);
      expect(plan.code, plan.stderr).toBe(0);
      chmodSync(sqlite, 0o600);
      const unreadable = await asNobody(['plan', manifest, '--state-dir', state]);
      chmodSync(sqlite, 0o644);
      expect(unreadable.code).toBe(1);
      expect(unreadable.stderr).toBe(`error: cannot read the state directory ${state}: the file ${sqlite} (mode 0600, owner uid 0) is not readable by this user (uid ${Nobody}): run zonewall as its owner, or give the files to this user (chown -R ${Nobody} ${state}), or pass another --state-dir\n`);
    } else {
      chmodSync(sqlite, 0o200);
      const uid = process.getuid!() + 1;
      expect(() => assertStateDirUsable(state, { writes: false }, uid)).toThrow(`cannot read the state directory ${state}: the file ${sqlite}`);
      chmodSync(sqlite, 0o644);
    }
  }, 30_000);

  it('export and test --against-zone (read only) say an unreadable zone file in one line', async () => {
    const cases = join(temp.dir, 'z.tests.yaml');
    writeFileSync(cases, 'zone: access.example.com\ncases:\n  - name: x is blocked\n    request:\n      host: x\n    expect:\n      action: block\n');
    chmodSync(cases, 0o644);
    const line = (uid: number, owner: number, mode: string) => `error: cannot read the state directory ${state}: the file ${sqlite} (mode ${mode}, owner uid ${owner}) is not readable by this user (uid ${uid}): ` +
      (owner === uid ? `give this user read access to it (chmod u+r ${sqlite})` : `run zonewall as its owner, or give the files to this user (chown -R ${uid} ${state})`) + ', or pass another --state-dir\n';
    const runs = isRoot
      ? { as: (args: string[]) => asNobody(args), uid: Nobody, owner: 0, mode: 0o600 }
      : { as: (args: string[]) => zonewall(args, { cwd: temp.dir }), uid: process.getuid!(), owner: process.getuid!(), mode: 0o200 };
    chmodSync(sqlite, runs.mode);
    try {
      for (const args of [['export', '--zone', 'access.example.com'], ['test', manifest, '--cases', cases, '--against-zone']]) {
        const run = await runs.as([...args, '--state-dir', state]);
        expect(run.stderr, args[0]).toBe(line(runs.uid, runs.owner, runs.mode.toString(8).padStart(4, '0')));
        expect(run.code, args[0]).toBe(1);
      }
    } finally {
      chmodSync(sqlite, 0o644);
    }
  }, 30_000);

  it('plan walks nothing ahead: a file of another user that it does not read does not stop it', async () => {
    // Readers read no alarm index; before, the walk ahead of every command refused this file.
    const alarms = join(state, 'zones', 'alarms.sqlite');
    if (isRoot) {
      chmodSync(alarms, 0o600);
      const plan = await asNobody(['plan', manifest, '--state-dir', state]);
      chmodSync(alarms, 0o644);
      expect(plan.stderr).toBe('');
      expect(plan.code).toBe(0);
    } else {
      chmodSync(alarms, 0o200);
      const plan = await zonewall(['plan', manifest, '--state-dir', state], { cwd: temp.dir });
      chmodSync(alarms, 0o644);
      expect(plan.code, plan.stderr).toBe(0);
    }
  }, 30_000);

  it('plan says a folder it cannot read in one line, naming the folder', async () => {
    const objects = join(state, 'zones', 'objects');
    if (!isRoot) {
      chmodSync(objects, 0o000);
      const own = await zonewall(['plan', manifest, '--state-dir', state], { cwd: temp.dir });
      chmodSync(objects, 0o777);
      expect(own.code).toBe(1);
      expect(own.stderr).toContain(`error: cannot read the state directory ${state}: the folder ${objects} (mode 0000, owner uid ${process.getuid!()})`);
      return;
    }
    chmodSync(objects, 0o700);
    const plan = await asNobody(['plan', manifest, '--state-dir', state]);
    chmodSync(objects, 0o777);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toBe(`error: cannot read the state directory ${state}: the folder ${objects} (mode 0700, owner uid 0) is not readable by this user (uid ${Nobody}): run zonewall as its owner, or give the files to this user (chown -R ${Nobody} ${state}), or pass another --state-dir\n`);
    expect(plan.stdout).not.toMatch(/HTTP 500|internal error/);
  }, 30_000);

  it('a folder it may read but not search (no x) hides what it holds: that folder is named in one line (was HTTP 500 and a stack trace)', async () => {
    // The read's diagnosis looked at the object's folder below it, whose lstat failed with EACCES.
    const zones = join(state, 'zones');
    const objects = join(zones, 'objects');
    if (!isRoot) {
      chmodSync(zones, 0o600);
      try {
        expect(findBlocked([objects, sqlite], false)?.path).toBe(zones);
      } finally {
        chmodSync(zones, 0o777);
      }
      return;
    }
    chmodSync(zones, 0o744);
    try {
      for (const args of [['plan', manifest], ['export', '--zone', 'access.example.com']]) {
        const run = await asNobody([...args, '--state-dir', state]);
        expect(run.stderr, args[0]).toBe(`error: cannot read the state directory ${state}: the folder ${zones} (mode 0744, owner uid 0) is not readable by this user (uid ${Nobody}): run zonewall as its owner, or give the files to this user (chown -R ${Nobody} ${state}), or pass another --state-dir\n`);
        expect(run.stdout, args[0]).not.toMatch(/HTTP 500|internal error/);
        expect(run.code, args[0]).toBe(1);
      }
    } finally {
      chmodSync(zones, 0o777);
    }
  }, 30_000);

  it('files of its own, read-only, are not refused (zonewall makes them 0600 itself)', () => {
    const own = join(temp.dir, 'own');
    mkdirSync(own);
    writeFileSync(join(own, 'x.sqlite'), '');
    chmodSync(join(own, 'x.sqlite'), 0o444);
    expect(() => assertStateDirUsable(own, { writes: true })).not.toThrow();
  });
});

describe('a file of its own that it may not write (0400: zonewall tightens modes, it does not widen them)', () => {
  it('apply: the walk passes it, storage refuses it when the zone opens, before anything is written: one line, exit 1', async () => {
    const own = tempDir('state-access-own');
    chmodSync(own.dir, 0o777);
    const dir = join(own.dir, 'state');
    const user = isRoot ? Nobody : process.getuid!();
    const env: NodeJS.ProcessEnv = { NO_COLOR: '1', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: own.dir };
    const as = isRoot ? { uid: Nobody, gid: Nobody } : {};
    const run = (args: string[]) => outputOf(spawnCli(args, own.dir, env, as));
    try {
      const created = await run(['engine', 'zone', 'create', 'own.example.com', '--plan', 'business', '--state-dir', dir]);
      expect(created.code, created.stderr).toBe(0);
      const zone = writeManifest(own.dir, 'own.yaml', 'zone: own.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: http.host eq "x"\n');
      chmodSync(zone, 0o644);
      const objects = join(dir, 'zones', 'objects');
      const file = join(objects, readdirSync(objects).find((n) => n.endsWith('.sqlite'))!);
      chmodSync(file, 0o400);
      const before = readFileSync(file);
      const applied = await run(['apply', zone, '--auto-approve', '--state-dir', dir]);
      expect(applied.stderr).toBe(`error: cannot write the state directory ${dir}: the file ${file} (mode 0400, owner uid ${user}) is not writable by this user (uid ${user}): give this user write access to it (chmod u+rw ${file}), or pass another --state-dir\n`);
      expect(applied.code).toBe(1);
      expect(applied.stdout).not.toMatch(/Apply complete|HTTP 500|readonly database/);
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(existsSync(`${file}-wal`)).toBe(false);
      expect(existsSync(join(dir, 'applies'))).toBe(false);
    } finally {
      own.cleanup();
    }
  }, 60_000);
});

describe('rollback with an applies folder of its own it may not write', () => {
  it('refuses before restoring: one line naming the folder, exit 1, the zone unchanged (it restored, then failed to remove the record)', async () => {
    const own = tempDir('state-access-rollback');
    chmodSync(own.dir, 0o777);
    const dir = join(own.dir, 'state');
    const user = isRoot ? Nobody : process.getuid!();
    const env: NodeJS.ProcessEnv = { NO_COLOR: '1', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: own.dir };
    const as = isRoot ? { uid: Nobody, gid: Nobody } : {};
    const run = (args: string[]) => outputOf(spawnCli([...args, '--state-dir', dir], own.dir, env, as));
    try {
      expect((await run(['engine', 'zone', 'create', 'rb.example.com', '--plan', 'business'])).code).toBe(0);
      const zone = writeManifest(own.dir, 'rb.yaml', 'zone: rb.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: http.host eq "x"\n');
      chmodSync(zone, 0o644);
      const applied = await run(['apply', zone, '--auto-approve']);
      expect(applied.code, applied.stderr).toBe(0);
      const exported = async () => (await run(['export', '--zone', 'rb.example.com'])).stdout;
      const before = await exported();
      expect(before).toContain('http.host eq "x"');
      const applies = join(dir, 'applies');
      chmodSync(applies, 0o500);
      const rolled = await run(['rollback', '--zone', 'rb.example.com', '--auto-approve']);
      chmodSync(applies, 0o700);
      expect(rolled.stderr).toBe(`error: cannot write the state directory ${dir}: the folder ${applies} (mode 0500, owner uid ${user}) is not writable by this user (uid ${user}): give this user write access to it (chmod u+rwx ${applies}), or pass another --state-dir\n`);
      expect(rolled.code).toBe(1);
      expect(rolled.stdout).toBe('');
      expect(await exported()).toBe(before);
      // Writable again, the rollback goes through once.
      const again = await run(['rollback', '--zone', 'rb.example.com', '--auto-approve']);
      expect(again.code, again.stderr).toBe(0);
      expect(await exported()).not.toContain('http.host eq "x"');
    } finally {
      own.cleanup();
    }
  }, 60_000);
});

describe('serve meets a file it may not write (changed after it started)', () => {
  it('answers its reads, refuses its writes with a clean API error and one log line naming the file, no stack trace; the file is unchanged', async () => {
    // The server's user owns everything (as root: nobody); once it listens, one zone file turns read-only.
    const served = tempDir('state-access-serve');
    chmodSync(served.dir, 0o777);
    const dir = join(served.dir, 'state');
    const user = isRoot ? Nobody : process.getuid!();
    const env: NodeJS.ProcessEnv = { NO_COLOR: '1', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: served.dir, ZONEWALL_SERVE_TOKEN: 'state-access-token-0123456789abcdefghij' };
    const as = isRoot ? { uid: Nobody, gid: Nobody } : {};
    const created = await outputOf(spawnCli(['engine', 'zone', 'create', 'served.example.com', '--plan', 'business', '--state-dir', dir], served.dir, env, as));
    expect(created.code, created.stderr).toBe(0);
    const server = watchServe(spawnCli(['serve', '--port', '0', '--state-dir', dir], served.dir, env, as));
    try {
      const url = await server.url;
      const headers = { authorization: `Bearer ${env.ZONEWALL_SERVE_TOKEN}`, 'content-type': 'application/json' };
      const zones = await (await fetch(`${url}/zones?name=served.example.com`, { headers })).json() as { result: { id: string }[] };
      const id = zones.result[0]!.id;
      const objects = join(dir, 'zones', 'objects');
      const file = join(objects, readdirSync(objects).find((n) => n.endsWith('.sqlite'))!);
      chmodSync(file, 0o444);
      const before = statSync(file).mtimeMs;
      // Reads of the zone are answered (the server used to refuse the open, GETs too).
      const read = await fetch(`${url}/zones/${id}/firewall/rules`, { headers });
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ success: true, result: [] });
      const res = await fetch(`${url}/zones/${id}/firewall/rules`, { method: 'POST', headers, body: JSON.stringify([{ action: 'block', filter: { expression: 'http.host eq "x"' } }]) });
      expect(res.status).toBe(500);
      const body = await res.json() as { success: boolean; errors: { code: number; message: string }[] };
      expect(body.success).toBe(false);
      expect(body.errors).toEqual([{ code: 10500, message: 'internal error: the request was not applied: the server cannot write a file of its state directory (the server log names it)' }]);
      expect(statSync(file).mtimeMs).toBe(before);
      expect((await fetch(`${url}/zones/${id}/firewall/rules`, { headers })).status).toBe(200);
      // Writable again: the write goes through (the zone reopens for writing at its next request).
      chmodSync(file, 0o600);
      const retried = await fetch(`${url}/zones/${id}/firewall/rules`, { method: 'POST', headers, body: JSON.stringify([{ action: 'block', filter: { expression: 'http.host eq "y"' } }]) });
      expect(retried.status).toBe(200);
      const rules = await (await fetch(`${url}/zones/${id}/firewall/rules`, { headers })).json() as { result: { filter: { expression: string } }[] };
      expect(rules.result.map((r) => r.filter.expression)).toEqual(['http.host eq "y"']);
      await server.stop();
      const exit = await server.closed;
      const lines = exit.err.split('\n').filter((l) => l.includes(`/zones/${id}/firewall/rules`));
      expect(lines).toEqual([`zonewall serve: POST /client/v4/zones/${id}/firewall/rules failed: cannot write the state directory ${resolve(dir)}: the file ${resolve(file)} (mode 0444, owner uid ${user}) is not writable by this user (uid ${user}): give this user write access to it (chmod u+rw ${resolve(file)})`]);
      expect(exit.err).not.toMatch(/^\s+at /m);
      expect(exit.err).not.toContain('readonly database');
    } finally {
      await server.stop('SIGKILL');
      served.cleanup();
    }
  }, 60_000);
});

describe('a state folder of its own that it may not list or search (0200, 0300, 0100)', () => {
  it('writers say it in one line naming the folder, its mode and what to do (was "permission denied: DIR"); readers read what they can', async () => {
    const own = tempDir('state-access-folder');
    chmodSync(own.dir, 0o777);
    const dir = join(own.dir, 'state');
    const user = isRoot ? Nobody : process.getuid!();
    const env: NodeJS.ProcessEnv = { NO_COLOR: '1', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: own.dir };
    const as = isRoot ? { uid: Nobody, gid: Nobody } : {};
    const run = (args: string[]) => outputOf(spawnCli([...args, '--state-dir', dir], own.dir, { ...env, ZONEWALL_SERVE_TOKEN: 'folder-access-token-0123456789abcdefghij' }, as));
    try {
      expect((await run(['engine', 'zone', 'create', 'fold.example.com', '--plan', 'business'])).code).toBe(0);
      const zone = writeManifest(own.dir, 'fold.yaml', 'zone: fold.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: http.host eq "x"\n');
      chmodSync(zone, 0o644);
      expect((await run(['apply', zone, '--auto-approve'])).code).toBe(0);
      const line = (folder: string, mode: number) => `error: cannot write the state directory ${dir}: the folder ${folder} (mode ${mode.toString(8).padStart(4, '0')}, owner uid ${user}) ` +
        `is not readable by this user (uid ${user}): give this user read and write access to it (chmod u+rwx ${folder}), or pass another --state-dir\n`;
      for (const folder of [dir, join(dir, 'zones'), join(dir, 'zones', 'objects')]) {
        for (const mode of [0o200, 0o300, 0o100]) {
          chmodSync(folder, mode);
          try {
            for (const args of [['apply', zone, '--auto-approve'], ['engine', 'zone', 'create', 'other.example.com'], ['serve', '--port', '0'], ['rollback', '--zone', 'fold.example.com', '--auto-approve']]) {
              const writer = await run(args);
              const what = `${args.slice(0, 2).join(' ')} on ${folder} ${mode.toString(8)}`;
              // rollback first reads its record: a root it may not search is said by that read.
              if (args[0] === 'rollback' && folder === dir && mode === 0o200) expect(writer.stderr, what).toMatch(/^error: cannot read the state directory .* \(mode 0200, .*, or pass another --state-dir\n$/);
              else expect(writer.stderr, what).toBe(line(folder, mode));
              expect(writer.code, what).toBe(1);
              expect(writer.stdout, what).not.toMatch(/Apply complete|listening/);
            }
            // A reader opens the paths it knows: it needs search (x), not listing (r), and nothing it does not read.
            const plan = await run(['plan', zone]);
            if (folder === dir && mode === 0o200) {
              expect(plan.stderr).toBe(`error: cannot read the state directory ${dir}: the folder ${dir} (mode 0200, owner uid ${user}) is not readable by this user (uid ${user}): give this user read access to it (chmod u+rx ${dir}), or pass another --state-dir\n`);
              expect(plan.code).toBe(1);
            } else if (mode !== 0o200) {
              expect(plan.stderr, `plan on ${folder} ${mode.toString(8)}`).toBe('');
              expect(plan.stdout).toContain('No changes');
            } else {
              expect(plan.stderr, `plan on ${folder} 200`).toMatch(/^error: cannot read the state directory .*, or pass another --state-dir\n$/);
            }
          } finally {
            chmodSync(folder, 0o700);
          }
        }
      }
      // Usable again, the rollback goes through.
      const rolled = await run(['rollback', '--zone', 'fold.example.com', '--auto-approve']);
      expect(rolled.code, rolled.stderr).toBe(0);
    } finally {
      own.cleanup();
    }
  }, 180_000);
});
