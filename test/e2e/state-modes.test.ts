/**
 * The state directory is private to the user (issue 31), as the README promises: after an apply (its
 * record in applies/, the engine's SQLite files, PITR logs and bookmarks, lock files), a second
 * apply, a rollback, a `zonewall engine zone create` and a `serve` that took an apply (of a state directory left loose), every
 * directory under it is 0700 and every file 0600, with the usual umask 022; a state directory made
 * by an older zonewall with looser modes is tightened by the next command that opens it for writing.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireBuild, startServe, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

/** Every entry under `dir` whose mode is not 0700 (directories) or 0600 (files), as `path mode`. */
function loose(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string): void => {
    const st = lstatSync(path);
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want) out.push(`${path} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return out;
}

/** Every entry under `dir`, for a count. */
function entries(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String);
}

/** Gives everything under `dir` the modes an older zonewall left: 0755 and 0644. */
function loosen(dir: string): void {
  for (const name of entries(dir)) chmodSync(join(dir, name), lstatSync(join(dir, name)).isDirectory() ? 0o755 : 0o644);
  chmodSync(dir, 0o755);
}

let tmp: ReturnType<typeof tempDir>;
let state: string;
let umask: number;
const manifest = (description = '') =>
  `zone: a.example\nfilters:\n  api:\n    expression: http.request.uri.path eq "/api"\nfirewall_rules:\n  block-api:\n    action: block\n    filter: api\n${description === '' ? '' : `    description: ${description}\n`}`;

beforeAll(() => {
  requireBuild();
  // The children inherit the umask: the usual one, which alone would give 0755 and 0644.
  umask = process.umask(0o022);
});
afterAll(() => { process.umask(umask); });
beforeEach(() => { tmp = tempDir('state-modes'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

describe('the state directory', () => {
  it('is 0700 for every directory and 0600 for every file after applies, a rollback and engine zone create', async () => {
    const a = writeManifest(tmp.dir, 'a.yaml', manifest());
    const first = await zonewall(['apply', a, '--auto-approve', '--state-dir', state]);
    expect(first.code, first.stderr).toBe(0);
    expect(entries(join(state, 'applies')).length).toBe(1);
    expect(loose(state)).toEqual([]);
    const edited = writeManifest(tmp.dir, 'edited.yaml', manifest('edited'));
    expect((await zonewall(['apply', edited, '--auto-approve', '--state-dir', state])).code).toBe(0);
    expect(loose(state)).toEqual([]);
    expect((await zonewall(['rollback', '--zone', 'a.example', '--auto-approve', '--state-dir', state])).code).toBe(0);
    expect((await zonewall(['engine', 'zone', 'create', 'b.example', '--state-dir', state])).code).toBe(0);
    expect(loose(state)).toEqual([]);
  });

  it('is tightened when it was made with looser modes', async () => {
    const a = writeManifest(tmp.dir, 'a.yaml', manifest());
    expect((await zonewall(['apply', a, '--auto-approve', '--state-dir', state])).code).toBe(0);
    loosen(state);
    expect(loose(state).length).toBeGreaterThan(5);
    const edited = writeManifest(tmp.dir, 'edited.yaml', manifest('edited'));
    expect((await zonewall(['apply', edited, '--auto-approve', '--state-dir', state])).code).toBe(0);
    expect(loose(state)).toEqual([]);
  });

  it('is private after a serve took an apply', async () => {
    // The remote provider creates no zone: the zone exists first; then only the server writes.
    expect((await zonewall(['engine', 'zone', 'create', 'a.example', '--state-dir', state])).code).toBe(0);
    loosen(state);
    const served = await startServe(state);
    try {
      const a = writeManifest(tmp.dir, 'a.yaml', manifest());
      const viaServe = await zonewall(['apply', a, '--auto-approve', '--remote', served.url], { env: { ZONEWALL_API_TOKEN: served.token } });
      expect(viaServe.code, viaServe.stderr).toBe(0);
    } finally {
      await served.stop();
    }
    expect(entries(state).length).toBeGreaterThan(3);
    expect(loose(state)).toEqual([]);
  });
});
