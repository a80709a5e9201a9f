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
import { chmodSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertStateDirUsable } from '../../src/cli/state-dir-access.js';
import { outputOf, repoRoot, requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

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

/** The CLI as `nobody`, with the caller's environment minus zonewall's settings. */
function asNobody(args: string[]) {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: temp.dir };
  return outputOf(spawn(process.execPath, [join(repoRoot, 'bin', 'zonewall.js'), ...args], { cwd: temp.dir, env, uid: Nobody, gid: Nobody, stdio: ['ignore', 'pipe', 'pipe'] }));
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

  it('files of its own, read-only, are not refused (zonewall makes them 0600 itself)', () => {
    const own = join(temp.dir, 'own');
    mkdirSync(own);
    writeFileSync(join(own, 'x.sqlite'), '');
    chmodSync(join(own, 'x.sqlite'), 0o444);
    expect(() => assertStateDirUsable(own, { writes: true })).not.toThrow();
  });
});
