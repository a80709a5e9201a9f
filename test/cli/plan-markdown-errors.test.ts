/**
 * `plan --markdown` carries the manifest errors (issue 34: the pull-request comment must say why a
 * manifest was not planned): a section with each error as `file:line:col: path: message` in a
 * fence, before the plans; also when no manifest is valid (nothing else to print), exit 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderRunMarkdown } from '../../src/cli/views/markdown.js';
import { zonewall } from '../migrate/cli.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-md-errors-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('plan --markdown with manifest errors', () => {
  it('renders the errors in a fence, with a heading that counts them', () => {
    const md = renderRunMarkdown([], [
      { file: 'zones/a.yaml', line: 4, column: 13, path: 'custom_rules.bad.action', message: 'must be one of block' },
      { file: 'zones/b.yaml', line: 1, column: 1, path: '', message: 'has `` ``` `` in it' },
    ]);
    expect(md).toBe('### zonewall: 2 manifest errors in 2 files (not planned)\n\n~~~~\nzones/a.yaml:4:13: custom_rules.bad.action: must be one of block\nzones/b.yaml:1:1: has `` ``` `` in it\n~~~~\n');
  });

  it('the CLI prints them when every manifest is invalid, and exits 1', { timeout: 60_000 }, async () => {
    fs.writeFileSync(path.join(dir, 'bad.yaml'), 'zone: bad.example.com\ncustom_rules:\n  bad:\n    action: frobnicate\n    expression: http.host eq "a"\n');
    const r = await zonewall(['plan', 'bad.yaml', '--markdown', '--state-dir', path.join(dir, 'state')], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^### zonewall: 1 manifest error in 1 file \(not planned\)\n\n```\nbad\.yaml:4:13: custom_rules\.bad\.action: must be one of /);
  });
});
