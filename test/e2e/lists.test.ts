/**
 * Lists end to end with the real CLI (built dist/): examples/lists validates and its cases pass
 * offline; an unknown `$name` and a bad item are positioned errors (exit 1).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, tempDir, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;

beforeAll(() => {
  requireBuild();
  tmp = tempDir('lists');
  cpSync(join(repoRoot, 'examples', 'lists'), join(tmp.dir, 'lists'), { recursive: true });
});
afterAll(() => tmp.cleanup());

describe('examples/lists with the real CLI', () => {
  it('validates the account and the zone together', async () => {
    const run = await zonewall(['validate', 'examples/lists']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('ok examples/lists/account.yaml: account zonewall engine (2 lists, 5 items)');
    expect(run.stdout).toContain('2 manifests valid');
    expect(run.code).toBe(0);
  });

  it('its cases pass offline, $name resolved from the account manifest', async () => {
    const run = await zonewall(['test', 'examples/lists', '--json']);
    const doc = JSON.parse(run.stdout) as { reports: { passed: number; failed: number }[] };
    expect(doc.reports.map((r) => [r.passed, r.failed])).toEqual([[4, 0]]);
    expect(run.code).toBe(0);
  });

  it('an unknown list and a bad item are positioned errors', { timeout: 120_000 }, async () => {
    const dir = join(tmp.dir, 'lists');
    const zone = join(dir, 'lists.example.com.yaml');
    writeFileSync(zone, readFileSync(zone, 'utf8').replace('$office_ips', '$office_ip'));
    const account = join(dir, 'account.yaml');
    writeFileSync(account, readFileSync(account, 'utf8').replace('- 192.0.2.0/24', '- 192.0.2.1/24'));
    const run = await zonewall(['validate', dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${dir}/account.yaml:15:9: lists.office_ips.items[0]: "192.0.2.1/24": host bits are set: the network of 192.0.2.1/24 is 192.0.2.0/24`);
    // With the account manifest invalid, its lists are not known: the zone's $names are not reported twice.
    expect(run.stdout).not.toContain('unknown list');
    writeFileSync(account, readFileSync(account, 'utf8').replace('- 192.0.2.1/24', '- 192.0.2.0/24'));
    const again = await zonewall(['validate', dir]);
    expect(again.stdout).toContain(`${dir}/lists.example.com.yaml:12:27: custom_rules.allow-office.expression: unknown list $office_ip: the account manifest ${dir}/account.yaml has no list of that name; did you mean $office_ips?`);
    expect(again.code).toBe(1);
    const test = await zonewall(['test', dir]);
    expect(test.code).toBe(1);
    expect(test.stdout + test.stderr).toContain('unknown list $office_ip');
  });
});
