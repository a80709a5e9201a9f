/**
 * The commands that only read create and change no file (issue 31): `export`, `engine zone
 * list/show`, `migrate status`, `migrate` without `--mode` (a dry run), a refused `rollback`, and an
 * apply that cannot write (no terminal and no `--auto-approve`: it shows the plan and refuses) each
 * run as the built CLI in a child process, with the default state directory (`.zonewall` in the
 * working directory), once in an empty directory (no `.zonewall` appears) and once beside an
 * existing state directory (every file and directory keeps its name, size and mtime).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listing } from '../helpers/file-listing.js';
import { requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let work: string;
let scratch: string;

const manifest = (description = '') =>
  `zone: a.example\nfilters:\n  api:\n    expression: http.request.uri.path eq "/api"\nfirewall_rules:\n  block-api:\n    action: block\n    filter: api\n${description === '' ? '' : `    description: ${description}\n`}`;

/** Runs zonewall in the working directory, with a private TMPDIR inside it (listed too). */
const run = (...args: string[]) => zonewall(args, { cwd: work, env: { TMPDIR: scratch } });

/** Every read-only command; `code` is the exit code it must end with, when it matters. */
function readOnlyCommands(existing: boolean): { args: string[]; code?: number }[] {
  return [
    { args: ['export', '--zone', 'a.example'], code: existing ? 0 : 1 },
    { args: ['export', '--zone', 'a.example', '--no-adopt'], code: existing ? 0 : 1 },
    { args: ['engine', 'zone', 'list'], code: 0 },
    { args: ['engine', 'zone', 'list', '--json'], code: 0 },
    { args: ['engine', 'zone', 'show', 'a.example'], code: existing ? 0 : 1 },
    { args: ['migrate', 'status', '--zone', 'a.example'], code: existing ? 0 : 1 },
    { args: ['migrate', 'a.yaml'] },
    { args: ['rollback', '--zone', existing ? 'missing.example' : 'a.example'], code: 1 },
    // Without a terminal or --auto-approve, an apply with changes shows them and refuses.
    { args: ['apply', existing ? 'edited.yaml' : 'a.yaml'], code: 1 },
    { args: ['apply', existing ? 'edited.yaml' : 'a.yaml', '--json'], code: 1 },
    { args: ['apply', 'saved-plan.json'], code: 1 },
  ];
}

beforeAll(() => requireBuild());
beforeEach(() => {
  tmp = tempDir('read-only-commands');
  work = join(tmp.dir, 'work');
  scratch = join(work, 'tmp');
  mkdirSync(scratch, { recursive: true });
});
afterEach(() => tmp.cleanup());

describe('read-only commands', () => {
  it('create no state directory, nor any file, in an empty directory', async () => {
    writeManifest(work, 'a.yaml', manifest());
    const planned = await run('plan', 'a.yaml', '--out', 'saved-plan.json');
    expect(planned.code, planned.stderr).toBe(0);
    const before = listing(work);
    for (const { args, code } of readOnlyCommands(false)) {
      const r = await run(...args);
      if (code !== undefined) expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(listing(work), `zonewall ${args.join(' ')}`).toEqual(before);
    }
  });

  it('change no file of an existing state directory', async () => {
    writeManifest(work, 'a.yaml', manifest());
    const applied = await run('apply', 'a.yaml', '--auto-approve');
    expect(applied.code, applied.stderr).toBe(0);
    writeManifest(work, 'edited.yaml', manifest('edited'));
    const planned = await run('plan', 'edited.yaml', '--out', 'saved-plan.json');
    expect(planned.code, planned.stderr).toBe(0);
    const before = listing(work);
    expect(before.some((l) => l.includes('.zonewall'))).toBe(true);
    for (const { args, code } of readOnlyCommands(true)) {
      const r = await run(...args);
      if (code !== undefined) expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(listing(work), `zonewall ${args.join(' ')}`).toEqual(before);
    }
  });
});
