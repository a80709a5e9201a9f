/**
 * A state directory whose database file is damaged (cut short by a full disk or a bad copy, or
 * overwritten): plan and apply met `internal error: SqliteError: file is not a database (this is a
 * bug in zonewall ...)`, or an engine log with a stack trace and `refused with HTTP 500 ... (details
 * are in the server log)` in a process that has no server. Now both say it in one line
 * (ERR_STATE_DAMAGED: which damage, what to do), exit 1, no stack trace; `serve` answers the request
 * 500 and logs the same one line, without a stack trace. A rollback whose point-in-time history
 * (PITR log, lineage) is missing or damaged met `internal error: RangeError` / `TypeError`: now one
 * line, exit 1, nothing rolled back.
 */
import { readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';
import { spawnServe } from '../helpers/serve-child.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
let manifest: string;
const Zone = 'damaged.example.com';
const text = (action: string) => `zone: ${Zone}\nplan: enterprise\ncustom_rules:\n  a:\n    action: ${action}\n    expression: http.host eq "x"\n`;

beforeAll(() => { requireBuild(); });
beforeEach(async () => {
  tmp = tempDir('damaged-state');
  state = join(tmp.dir, 'state');
  manifest = writeManifest(tmp.dir, 'zone.yaml', text('block'));
  const applied = await zonewall(['apply', manifest, '--auto-approve', '--state-dir', state]);
  if (applied.code !== 0) throw new Error(applied.stderr);
  writeManifest(tmp.dir, 'zone.yaml', text('managed_challenge'));
}, 60_000);
afterEach(() => { tmp.cleanup(); });

/** Every database file of the zones' objects. */
function zoneDatabases(): string[] {
  const dir = join(state, 'zones', 'objects');
  return readdirSync(dir).filter((f) => f.endsWith('.sqlite')).map((f) => join(dir, f));
}

const damages: [string, (file: string) => void, RegExp][] = [
  ['overwritten with text', (file) => writeFileSync(file, 'not a database at all, '.repeat(200)), /\(file is not a database: SQLITE_NOTADB\)/],
  ['cut to half its size', (file) => truncateSync(file, Math.floor(statSync(file).size / 2)), /\(database disk image is malformed: SQLITE_CORRUPT\)/],
];

/** plan says it at the zone's place (stdout), apply on stderr: the line, whole. */
const OneLine = /^error(?: \[ERR_STATE_DAMAGED\])?: a database file of the state directory is damaged \(.+\): restore the state directory from a backup, or move it away to start with an empty one$/m;

describe('a damaged database file of the state directory', () => {
  for (const [name, damage, said] of damages) {
    it(`${name}: plan and apply say so in one line, exit 1, no stack trace`, async () => {
      for (const file of zoneDatabases()) damage(file);
      for (const args of [['plan', manifest], ['apply', manifest, '--auto-approve']]) {
        const run = await zonewall([...args, '--state-dir', state]);
        expect(run.code, run.stdout + run.stderr).toBe(1);
        expect(run.stdout + run.stderr).toMatch(OneLine);
        expect(run.stdout + run.stderr).toMatch(said);
        expect(run.stdout + run.stderr).not.toMatch(/internal error|HTTP 500|\n\s+at /);
      }
    }, 60_000);
  }

  it('an empty database file (a writer killed between creating it and its first commit) reads as an empty object: plan, no stack trace', async () => {
    for (const dir of ['zones', 'accounts', 'registry']) {
      for (const f of readdirSync(join(state, dir, 'objects')).filter((x) => x.endsWith('.sqlite'))) truncateSync(join(state, dir, 'objects', f), 0);
    }
    const plan = await zonewall(['plan', manifest, '--state-dir', state]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).not.toMatch(/internal error|HTTP 500|SQLITE|\n\s+at /);
    expect(plan.stdout).toContain('1 to add');
  }, 60_000);

  it('serve: the request is answered 500 and logged in one line, without a stack trace', async () => {
    for (const file of zoneDatabases()) writeFileSync(file, 'not a database at all, '.repeat(200));
    const token = 'e2e-damaged-state-token-0123456789abcdef';
    const served = spawnServe([join(repoRoot, 'bin', 'zonewall.js'), 'serve', '--port', '0', '--state-dir', state], { env: { PATH: process.env.PATH ?? '', ZONEWALL_SERVE_TOKEN: token } });
    try {
      const run = await zonewall(['plan', manifest, '--remote', await served.url], { env: { ZONEWALL_API_TOKEN: token } });
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain('a database file of the server\'s state directory is damaged (the server log says more)');
    } finally {
      await served.stop();
    }
    const { out, err } = await served.closed;
    expect(out + err).toMatch(/failed: a database file of the state directory is damaged \(file is not a database: SQLITE_NOTADB\)/);
    expect(out + err).not.toMatch(/\n\s+at /);
  }, 60_000);

  const histories: [string, (pitr: string) => void][] = [
    ['its PITR log deleted', (pitr) => { for (const f of readdirSync(pitr).filter((n) => n.endsWith('.log'))) rmSync(join(pitr, f)); }],
    ['its lineage overwritten', (pitr) => writeFileSync(join(pitr, 'lineage'), 'garbage')],
  ];
  for (const [name, damage] of histories) {
    it(`rollback of a zone with ${name}: one line, exit 1, nothing rolled back (it was internal error: RangeError/TypeError)`, async () => {
      for (const file of zoneDatabases()) damage(file.replace(/\.sqlite$/, '.pitr'));
      const run = await zonewall(['rollback', '--zone', Zone, '--auto-approve', '--state-dir', state]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toMatch(/^error: cannot roll back damaged\.example\.com to before the apply of \S+: its point-in-time history in .+ is missing or damaged \(.+\); nothing was rolled back \(undo the apply by applying the previous manifest\)\n$/);
      expect(run.stdout + run.stderr).not.toMatch(/internal error|\n\s+at /);
      // The zone is as the apply left it: the block rule the manifest now changes.
      const plan = await zonewall(['plan', manifest, '--state-dir', state, '--detailed-exitcode']);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      expect(plan.stdout).toContain('action: block -> managed_challenge');
    }, 60_000);
  }
});
