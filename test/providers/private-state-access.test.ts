/**
 * The mode tightening of a state directory opened for writing (`holdPrivateState`, which a library
 * caller of `openProvider` meets without the CLI's walk ahead) on a folder of the user's own that it
 * may not list (0300, 0100): it was a bare `EACCES: permission denied, scandir` (the CLI said
 * "permission denied: DIR"); now the state directory's access error, one line naming the folder,
 * and the umask it set is given back.
 *
 * Root may list any folder, so as root the call runs in a child process as `nobody` (uid 65534).
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputOf, repoRoot, requireBuild, tempDir } from '../helpers/e2e-cli.js';

const Nobody = 65534;
const isRoot = process.getuid?.() === 0;
const uid = isRoot ? Nobody : process.getuid!();
let temp: ReturnType<typeof tempDir>;

beforeAll(() => {
  requireBuild();
  temp = tempDir('private-state-access');
  chmodSync(temp.dir, 0o755);
});
afterAll(() => temp.cleanup());

/** `holdPrivateState(dir)` as the test's user (as root: nobody): its error, and whether the umask came back. */
async function hold(dir: string): Promise<{ code?: string; message?: string; umaskKept: boolean }> {
  const script = `
    const { holdPrivateState } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'providers', 'index.js')).href)});
    const before = process.umask();
    let out = {};
    try { holdPrivateState(${JSON.stringify(dir)}).release(); } catch (err) { out = { code: err.code, message: err.message }; }
    process.stdout.write(JSON.stringify({ ...out, umaskKept: process.umask() === before }));
  `;
  const run = await outputOf(spawn(process.execPath, ['--input-type=module', '-e', script], { ...(isRoot ? { uid: Nobody, gid: Nobody } : {}), env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] }));
  if (run.stdout === '') throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { code?: string; message?: string; umaskKept: boolean };
}

describe('holdPrivateState on a folder of its own it may not list', () => {
  it('is ERR_STATE_ACCESS naming the folder, and gives the umask back', async () => {
    const state = join(temp.dir, 'state');
    const zones = join(state, 'zones');
    mkdirSync(zones, { recursive: true });
    if (isRoot) for (const p of [state, zones]) chownSync(p, Nobody, Nobody);
    for (const [folder, mode] of [[state, 0o300], [zones, 0o100]] as const) {
      chmodSync(folder, mode);
      try {
        const out = await hold(state);
        const octal = mode.toString(8).padStart(4, '0');
        expect(out).toEqual({
          code: 'ERR_STATE_ACCESS', umaskKept: true,
          message: `cannot write the state directory ${state}: the folder ${folder} (mode ${octal}, owner uid ${uid}) is not readable by this user (uid ${uid}): give this user read and write access to it (chmod u+rwx ${folder})`,
        });
      } finally {
        chmodSync(folder, 0o700);
      }
    }
    expect(await hold(state)).toEqual({ umaskKept: true });
  }, 30_000);
});
