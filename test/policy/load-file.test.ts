/**
 * Reading a cases file from disk: a path that cannot be read is one issue naming the file and why
 * in words (no such file, a directory, permission denied), not an errno message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/manifest/index.js';
import { loadCasesFile } from '../../src/policy/index.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zw-cases-file-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadCasesFile on a path it cannot read', () => {
  it('a missing file: "no such file"', async () => {
    const file = join(dir, 'missing.tests.yaml');
    expect((await loadCasesFile(file)).issues.map(formatIssue)).toEqual([`${file}: no such file`]);
  });

  it('a directory (--cases given a folder): says it is a directory, no EISDIR', async () => {
    expect((await loadCasesFile(dir)).issues.map(formatIssue)).toEqual([`${dir}: is a directory, not a cases file (give --cases a .tests.yaml file)`]);
  });
});
