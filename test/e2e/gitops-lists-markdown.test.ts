/**
 * A pull request that changes only the account manifest (an address added to a list, a list
 * removed): `plan --markdown`, the pull-request comment, shows the lists plan (it showed every zone
 * "No changes." while `--detailed-exitcode` exited 2), with the danger of a deleted list. The built
 * CLI in a child process on the embedded engine, examples/lists copied to a temp dir.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, tempDir, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let dir: string;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state], { cwd: tmp.dir });

beforeAll(async () => {
  requireBuild();
  tmp = tempDir('gitops-lists');
  dir = join(tmp.dir, 'zones');
  state = join(tmp.dir, 'state');
  cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
  const applied = await cli('apply', dir, '--auto-approve');
  expect(applied.code, applied.stderr).toBe(0);
}, 180_000);

afterAll(() => tmp?.cleanup());

describe('plan --markdown of a change to the account manifest', () => {
  it('shows the lists plan, items as a diff, before the zones, and exits 2 with --detailed-exitcode', { timeout: 120_000 }, async () => {
    const file = join(dir, 'account.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('      - 192.0.2.0/24\n', '      - 192.0.2.0/24\n      - 203.0.113.50\n'));
    const r = await cli('plan', dir, '--markdown', '--detailed-exitcode');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/^### zonewall plan: lists of account zonewall engine\n\nAccount manifest `\S*account\.yaml`\.\n\n\*\*Lists: 0 to add, 1 to change, 0 to destroy; 1 item to add, 0 to remove\.\*\*\n\n```diff\n~ list office_ips \(ip\): \+1, \d+ -> \d+ items\n\+ {5}203\.0\.113\.50\n```\n/);
    expect(r.stdout.indexOf('lists of account')).toBeLessThan(r.stdout.indexOf('### zonewall plan: lists.example.com'));
  });

  it('a list the account manifest no longer has is a deletion with its danger finding', { timeout: 120_000 }, async () => {
    const file = join(dir, 'account.yaml');
    const text = readFileSync(file, 'utf8');
    // A list no zone uses, applied, then removed from the manifest.
    writeFileSync(file, `${text}  spare_ips:\n    kind: ip\n    items:\n      - 198.51.100.0/24\n`);
    const applied = await cli('apply', dir, '--auto-approve');
    expect(applied.code, applied.stderr).toBe(0);
    writeFileSync(file, text);
    const r = await cli('plan', dir, '--markdown');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\n- list spare_ips (ip): 1 item\n');
    expect(r.stdout).toContain('**Findings**\n\n- ⚠️ **danger** `deletes-list`: list ');
  });
});
