/**
 * A `--state-dir` that names a file (a typo, or the manifest by mistake) is a usage error said in
 * one line, naming the option and the path, from every command that takes it: not an internal
 * error ("this is a bug in zonewall") nor an ENOTDIR from deep inside the storage layer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let temp: ReturnType<typeof tempDir>;
let file: string;
let manifest: string;
beforeAll(() => {
  requireBuild();
  temp = tempDir('state-dir-file');
  file = join(temp.dir, 'not-a-dir');
  writeFileSync(file, 'x');
  manifest = writeManifest(temp.dir, 'z.yaml', 'zone: t.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: http.host eq "x"\n');
});
afterAll(() => temp.cleanup());

describe('--state-dir naming a file', () => {
  const commands: [string, () => string[]][] = [
    ['plan', () => ['plan', manifest, '--state-dir', file]],
    ['apply', () => ['apply', manifest, '--auto-approve', '--state-dir', file]],
    ['export', () => ['export', '--zone', 't.example.com', '--state-dir', file]],
    ['engine zone create', () => ['engine', 'zone', 'create', 't.example.com', '--state-dir', file]],
    ['engine zone list', () => ['engine', 'zone', 'list', '--state-dir', file]],
    ['serve', () => ['serve', '--insecure-no-auth', '--port', '0', '--state-dir', file]],
  ];
  for (const [name, args] of commands) {
    it(`${name}: one line naming --state-dir and the path, exit 1, no stack trace`, async () => {
      const run = await zonewall(args(), { cwd: temp.dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`error: --state-dir ${file} is not a directory`);
      expect(run.stderr).not.toMatch(/internal error|ENOTDIR|EEXIST|\n\s+at /);
    }, 30_000);
  }
});
