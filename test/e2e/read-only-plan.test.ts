/**
 * A plan on the embedded engine only reads (issue 17), with the built CLI in a child process over
 * real SQLite files: it creates, changes and removes no file of the state directory (lock files,
 * `-wal`/`-shm`/`-journal` side files and directory entries included), nor any in the temporary
 * directory; it reads the committed state while a `serve` holds the directory for writing; and a
 * writer that starts while a plan reads waits for it (`--lock-timeout`) or is refused clearly.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listing } from '../helpers/file-listing.js';
import { Engine } from '../../src/engine/index.js';
import { outputOf, requireBuild, spawnZonewall, startServe, tempDir, writeManifest, zonewall, type CliRun } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;

const manifest = (zone: string, description = '') =>
  `zone: ${zone}\nfilters:\n  api:\n    expression: http.request.uri.path eq "/api"\nfirewall_rules:\n  block-api:\n    action: block\n    filter: api\n${description === '' ? '' : `    description: ${description}\n`}`;

/** How long a writer may take to reach the state directory's lock (a start takes seconds on a loaded machine). */
const WriterStartMs = 60_000;
/** Between two looks at the lock file. */
const PollMs = 20;

/**
 * True once `pid` holds `STATE/engine.lock` (its holder record names the pid); false when the process
 * exits first or `WriterStartMs` passes. Looks at the lock file every few milliseconds (its content
 * is written whole, by a hard link, so a look never sees half a record).
 */
async function holdsEngineLock(state: string, pid: number, exited: Promise<CliRun>): Promise<boolean> {
  let done = false;
  void exited.then(() => { done = true; });
  const deadline = Date.now() + WriterStartMs;
  while (!done && Date.now() < deadline) {
    try {
      if ((JSON.parse(readFileSync(join(state, 'engine.lock'), 'utf8')) as { pid?: unknown }).pid === pid) return true;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, PollMs));
  }
  return false;
}

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('read-only'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

describe('a read-only plan on the embedded engine', () => {
  it('leaves every file and directory of the state, and the temporary directory, as they were', async () => {
    const a = writeManifest(tmp.dir, 'a.yaml', manifest('a.example'));
    writeManifest(tmp.dir, 'b.yaml', manifest('b.example'));
    const applied = await zonewall(['apply', a, '--auto-approve', '--state-dir', state]);
    expect(applied.code, applied.stderr).toBe(0);
    const scratch = join(tmp.dir, 'tmp');
    mkdirSync(scratch);
    const before = [...listing(state), ...listing(scratch)];
    // a.example is in the state, b.example is not (it reads as new); text and JSON.
    const plan = await zonewall(['plan', tmp.dir, '--state-dir', state], { env: { TMPDIR: scratch } });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('b.example');
    const json = await zonewall(['plan', tmp.dir, '--json', '--state-dir', state], { env: { TMPDIR: scratch } });
    expect(json.code, json.stderr).toBe(0);
    expect([...listing(state), ...listing(scratch)]).toEqual(before);
  });

  it('of a state directory that does not exist creates none, nor anything in the temporary directory', async () => {
    writeManifest(tmp.dir, 'a.yaml', manifest('a.example'));
    const scratch = join(tmp.dir, 'tmp');
    mkdirSync(scratch);
    const before = listing(scratch);
    const plan = await zonewall(['plan', join(tmp.dir, 'a.yaml'), '--state-dir', state], { env: { TMPDIR: scratch } });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 2 to add');
    expect(listing(scratch)).toEqual(before);
    expect(() => statSync(state)).toThrow(/ENOENT/);
  });

  it('reads the committed state while zonewall serve holds the directory for writing', async () => {
    const file = writeManifest(tmp.dir, 'a.yaml', manifest('a.example'));
    expect((await zonewall(['apply', file, '--auto-approve', '--state-dir', state])).code).toBe(0);
    const served = await startServe(state);
    try {
      // A change through the server (committed in its WAL, not yet checkpointed into the file).
      const edited = writeManifest(tmp.dir, 'edited.yaml', manifest('a.example', 'changed-by-serve'));
      const viaServe = await zonewall(['apply', edited, '--auto-approve', '--remote', served.url], { env: { ZONEWALL_API_TOKEN: served.token } });
      expect(viaServe.code, viaServe.stderr).toBe(0);
      const plan = await zonewall(['plan', file, '--state-dir', state]);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('changed-by-serve');
      expect(plan.stdout).toContain('1 to change');
    } finally {
      await served.stop();
    }
  });
});

describe('a writer while a read-only engine reads', () => {
  it('is refused with ERR_LOCKED, or waits with --lock-timeout until the reader closes', async () => {
    const file = writeManifest(tmp.dir, 'a.yaml', manifest('a.example'));
    expect((await zonewall(['apply', file, '--auto-approve', '--state-dir', state])).code).toBe(0);
    const edited = writeManifest(tmp.dir, 'edited.yaml', manifest('a.example', 'edited'));
    const reader = await Engine.open({ dir: state, readOnly: true });
    let closed = false;
    try {
      expect((await reader.listZones()).map((z) => z.name)).toEqual(['a.example']);
      const refused = await zonewall(['apply', edited, '--auto-approve', '--state-dir', state]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('is being read by another process');
      const writer = spawnZonewall(['apply', edited, '--auto-approve', '--lock-timeout', '60s', '--state-dir', state]);
      const waiting = outputOf(writer);
      // The writer holds engine.lock (the reader takes none) and so waits on the reader's namespaces:
      // close the reader then, not after a guess of how long the writer takes to get there.
      expect(await holdsEngineLock(state, writer.pid!, waiting), 'the writer took engine.lock').toBe(true);
      closed = true;
      await reader.close();
      const waited = await waiting;
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toContain('edited');
    } finally {
      if (!closed) await reader.close();
    }
  });
});
