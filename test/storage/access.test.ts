/**
 * Files of a namespace directory this process may not use (`StorageAccessError`, `ERR_STATE_ACCESS`):
 * a writer is refused when it opens the object, before anything is written (SQLite used to open
 * the file read-only without a word and fail at the first write: `attempt to write a readonly
 * database`); a reader gets the same one line once its open failed (it used to get a bare EACCES
 * wrapped in `Cannot read ...`).
 *
 * Root may use any file, so as root the namespace runs in a child process as `nobody` (uid 65534)
 * over files of its own made read-only (0444) or unreadable (0200); as another user, in this process.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObjectNamespace, type ObjectState } from '../../src/storage/index.js';
import { outputOf, repoRoot, requireBuild, tempDir } from '../helpers/e2e-cli.js';

const Nobody = 65534;
const isRoot = process.getuid?.() === 0;
const uid = isRoot ? Nobody : process.getuid!();

class Box {
  constructor(private readonly ctx: ObjectState) {}
  async put(value: string): Promise<void> { await this.ctx.storage.put('v', value); }
  async get(): Promise<unknown> { return this.ctx.storage.get('v'); }
}

interface Outcome { ok: boolean; value?: unknown; code?: string; name?: string; message?: string; path?: string; owner?: number }

/** Opens `dir` (`readOnly` or not) and calls `method` on object `x`, as `nobody` when root. */
async function attempt(dir: string, readOnly: boolean, method: 'put' | 'get'): Promise<Outcome> {
  const script = `
    const { ObjectNamespace } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'storage', 'index.js')).href)});
    class Box { constructor(ctx) { this.ctx = ctx; } async put(v) { await this.ctx.storage.put('v', v); } async get() { return this.ctx.storage.get('v'); } }
    let out;
    try {
      const ns = new ObjectNamespace(Box, { dir: ${JSON.stringify(dir)}, readOnly: ${readOnly} });
      try { out = { ok: true, value: await ns.get('x')[${JSON.stringify(method)}]('changed') }; } finally { await ns.close().catch(() => undefined); }
    } catch (err) {
      out = { ok: false, code: err.code, name: err.constructor.name, message: err.message, path: err.path, owner: err.owner };
    }
    process.stdout.write(JSON.stringify(out));
  `;
  if (isRoot) {
    const run = await outputOf(spawn(process.execPath, ['--input-type=module', '-e', script], { uid: Nobody, gid: Nobody, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] }));
    if (run.stdout === '') throw new Error(run.stderr);
    return JSON.parse(run.stdout) as Outcome;
  }
  try {
    const ns = new ObjectNamespace(Box, { dir, readOnly });
    try {
      return { ok: true, value: await ns.get('x')[method]('changed') };
    } finally {
      await ns.close().catch(() => undefined);
    }
  } catch (err) {
    const e = err as Outcome & Error;
    return { ok: false, code: e.code, name: e.constructor.name, message: e.message, path: e.path, owner: e.owner };
  }
}

let temp: ReturnType<typeof tempDir>;
let dir: string;
let file: string;

beforeAll(async () => {
  requireBuild();
  temp = tempDir('storage-access');
  dir = join(temp.dir, 'ns');
  const ns = new ObjectNamespace(Box, { dir });
  await ns.get('x').put('before');
  await ns.close();
  const objects = join(dir, 'objects');
  file = join(objects, readdirSync(objects).find((n) => n.endsWith('.sqlite'))!);
  // Everything the child's user's own (as root: nobody's); then one file is made unusable.
  const all = (p: string): string[] => [p, ...(statSync(p).isDirectory() ? readdirSync(p).flatMap((n) => all(join(p, n))) : [])];
  chmodSync(temp.dir, 0o755);
  for (const p of all(dir)) {
    if (isRoot) chownSync(p, Nobody, Nobody);
    chmodSync(p, statSync(p).isDirectory() ? 0o700 : 0o600);
  }
}, 60_000);
afterAll(() => temp.cleanup());

describe('a namespace directory with a file this user may not use', () => {
  it('a writer is refused at the object\'s open, in one line naming the file, before anything is written', async () => {
    chmodSync(file, 0o444);
    const before = readFileSync(file);
    const out = await attempt(dir, false, 'put');
    chmodSync(file, 0o600);
    expect(out).toMatchObject({ ok: false, code: 'ERR_STATE_ACCESS', name: 'StorageAccessError', path: file, owner: uid });
    expect(out.message).toBe(`cannot write the state directory ${dir}: the file ${file} (mode 0444, owner uid ${uid}) is not writable by this user (uid ${uid}): give this user write access to it (chmod u+rw ${file})`);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
  }, 30_000);

  it('a writer is refused when the object\'s PITR log may not be written', async () => {
    const pitr = file.replace(/\.sqlite$/, '.pitr');
    const log = join(pitr, readdirSync(pitr).find((n) => n.endsWith('.log'))!);
    chmodSync(log, 0o444);
    const out = await attempt(dir, false, 'put');
    chmodSync(log, 0o600);
    expect(out).toMatchObject({ ok: false, code: 'ERR_STATE_ACCESS', path: log });
  }, 30_000);

  it('a writer is refused at the namespace\'s open when namespace.lock may not be written', async () => {
    const lock = join(dir, 'namespace.lock');
    chmodSync(lock, 0o444);
    const out = await attempt(dir, false, 'get');
    chmodSync(lock, 0o600);
    expect(out).toMatchObject({ ok: false, code: 'ERR_STATE_ACCESS', path: lock });
    expect(out.message).toContain(`the file ${lock} (mode 0444, owner uid ${uid}) is not writable by this user`);
  }, 30_000);

  it('a reader checks nothing ahead, and says an unreadable file in one line when its open fails', async () => {
    chmodSync(file, 0o444);
    // Read-only is enough for a reader.
    expect(await attempt(dir, true, 'get')).toEqual({ ok: true, value: 'before' });
    chmodSync(file, 0o200);
    const out = await attempt(dir, true, 'get');
    chmodSync(file, 0o600);
    expect(out).toMatchObject({ ok: false, code: 'ERR_STATE_ACCESS', path: file });
    expect(out.message).toBe(`cannot read the state directory ${dir}: the file ${file} (mode 0200, owner uid ${uid}) is not readable by this user (uid ${uid}): give this user read access to it (chmod u+r ${file})`);
  }, 30_000);

  it('a usable directory is written as before', async () => {
    expect(await attempt(dir, false, 'put')).toEqual({ ok: true });
    expect(await attempt(dir, true, 'get')).toEqual({ ok: true, value: 'changed' });
  }, 30_000);
});
