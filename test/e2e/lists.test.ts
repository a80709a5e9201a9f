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

describe('examples/lists plans, applies, plans clean and passes its cases against the zone (embedded engine)', () => {
  it('journey', { timeout: 300_000 }, async () => {
    const dir = join(tmp.dir, 'journey');
    cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
    const state = ['--state-dir', join(tmp.dir, 'state')];
    const plan = await zonewall(['plan', dir, ...state]);
    expect(plan.stdout).toContain('+ list office_ips (ip): 3 items');
    expect(plan.stdout).toContain('Lists: 2 to add, 0 to change, 0 to destroy; 5 items to add, 0 to remove.');
    expect(plan.code).toBe(0);
    const applied = await zonewall(['apply', dir, '--auto-approve', ...state]);
    expect(applied.stdout).toContain('Lists of account zonewall engine applied.');
    expect(applied.code).toBe(0);
    const clean = await zonewall(['plan', dir, '--detailed-exitcode', ...state]);
    expect(clean.stdout).toContain('No changes. The lists match the account manifest.');
    expect(clean.code).toBe(0);
    const live = await zonewall(['test', dir, '--against-zone', '--json', ...state]);
    expect((JSON.parse(live.stdout) as { reports: { passed: number; failed: number }[] }).reports.map((r) => [r.passed, r.failed])).toEqual([[4, 0]]);

    // Export writes the account manifest; beside the zone manifest it plans nothing (round trip).
    const exported = join(tmp.dir, 'exported');
    const ex = await zonewall(['export', '--account', 'zonewall engine', '--out', join(exported, 'account.yaml'), ...state]);
    expect(ex.code).toBe(0);
    cpSync(join(dir, 'lists.example.com.yaml'), join(exported, 'lists.example.com.yaml'));
    const round = await zonewall(['plan', exported, '--detailed-exitcode', ...state]);
    expect(round.stdout).toContain('No changes. The lists match the account manifest.');
    expect(round.code).toBe(0);

    // One item changed: one item write each way, shown with the item.
    const account = join(dir, 'account.yaml');
    writeFileSync(account, readFileSync(account, 'utf8').replace('- 2001:db8:10::/48', '- 2001:DB8:11::1'));
    const one = await zonewall(['plan', dir, '--json', ...state]);
    const doc = JSON.parse(one.stdout) as { lists: { writes: { before: { op: string; items: unknown[] }[] } } };
    expect(doc.lists.writes.before).toEqual([
      { op: 'add-items', name: 'office_ips', id: expect.any(String), items: [{ ip: '2001:db8:11::/64' }] },
      { op: 'remove-items', name: 'office_ips', id: expect.any(String), items: [{ id: expect.any(String) }] },
    ]);

    // Deleting a list a rule still uses is refused at plan, naming the rule.
    const text = readFileSync(account, 'utf8');
    writeFileSync(account, text.slice(0, text.indexOf('  blocked_asns:')));
    const refused = await zonewall(['plan', dir, ...state]);
    expect(refused.stdout).toContain('error: list blocked_asns cannot be deleted: zone lists.example.com custom_rules.block-bad-networks still uses it');
    expect(refused.code).toBe(1);
  });
});

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

describe('pre-flight sees the account\'s lists and the lists the run creates (embedded engine)', () => {
  it('examples/lists on a fresh state dir: no pre-flight error, apply succeeds; an unknown $name is still refused', { timeout: 300_000 }, async () => {
    const dir = join(tmp.dir, 'preflight');
    cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
    const state = ['--state-dir', join(tmp.dir, 'preflight-state')];
    // The lists do not exist yet: the run's list writes are made on the scratch copy first.
    const plan = await zonewall(['plan', dir, ...state]);
    expect(plan.stdout).toContain('+ list office_ips (ip): 3 items');
    expect(plan.stdout).not.toContain('preflight-refused');
    expect(plan.code).toBe(0);
    const applied = await zonewall(['apply', dir, '--auto-approve', ...state]);
    expect(applied.stdout).not.toContain('preflight-refused');
    expect(applied.code).toBe(0);
    // The lists now exist in the account: a changed rule using them pre-flights on a copy that carries them.
    const zone = join(dir, 'lists.example.com.yaml');
    writeFileSync(zone, readFileSync(zone, 'utf8').replace('action: block', 'action: managed_challenge'));
    const changed = await zonewall(['plan', dir, ...state]);
    expect(changed.stdout).toContain('~ custom_rule "block-bad-networks"');
    expect(changed.stdout).not.toContain('preflight-refused');
    expect(changed.code).toBe(0);
    // A list that neither exists nor is planned is refused at plan, where the manifest uses it.
    writeFileSync(zone, readFileSync(zone, 'utf8').replace('$office_ips', '$nope'));
    const unknown = await zonewall(['plan', dir, ...state]);
    expect(unknown.stderr).toContain(`${zone}:12:27: custom_rules.allow-office.expression: unknown list $nope`);
    expect(unknown.code).toBe(1);
  });
});

describe('a saved plan carries the lists plan (embedded engine)', () => {
  it('plan --out then apply FILE writes the lists before the rules that use them', { timeout: 300_000 }, async () => {
    const dir = join(tmp.dir, 'saved');
    cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
    const state = ['--state-dir', join(tmp.dir, 'saved-state')];
    const file = join(tmp.dir, 'saved-plan.json');
    const saved = await zonewall(['plan', dir, '--out', file, ...state]);
    expect(saved.code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { lists?: { writes: { before: { op: string; name: string }[] } } };
    expect(doc.lists?.writes.before.map((w) => [w.op, w.name])).toEqual([
      ['create-list', 'office_ips'], ['add-items', 'office_ips'], ['create-list', 'blocked_asns'], ['add-items', 'blocked_asns'],
    ]);
    const applied = await zonewall(['apply', file, '--auto-approve', ...state]);
    expect(applied.stderr).not.toContain('error');
    expect(applied.stdout).toContain('Lists of account zonewall engine applied.');
    expect(applied.code).toBe(0);
    // The lists and the rules are there: planning the manifests again finds nothing to do.
    const clean = await zonewall(['plan', dir, '--detailed-exitcode', ...state]);
    expect(clean.stdout).toContain('No changes. The lists match the account manifest.');
    expect(clean.code).toBe(0);
  });
});

describe('plan checks every $name where the manifest uses it, as validate does (issue 30)', () => {
  it('an unknown list and a list of the wrong kind are positioned manifest errors, from the account manifest or the live account', { timeout: 300_000 }, async () => {
    const dir = join(tmp.dir, 'plan-names');
    cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
    const state = ['--state-dir', join(tmp.dir, 'plan-names-state')];
    const zone = join(dir, 'lists.example.com.yaml');
    const account = join(dir, 'account.yaml');
    const original = readFileSync(zone, 'utf8');
    // A hostname list beside the IP and ASN lists.
    writeFileSync(account, `${readFileSync(account, 'utf8')}  hosts:\n    kind: hostname\n    items:\n      - shop.example.com\n`);
    writeFileSync(zone, original.replace('ip.src in $office_ips', 'ip.src in $nope').replace('ip.src.asnum in $blocked_asns', 'ip.src in $hosts'));
    const run = await zonewall(['plan', dir, ...state]);
    expect(run.stderr).toContain(`${zone}:12:27: custom_rules.allow-office.expression: unknown list $nope: the account manifest ${account} has no list of that name`);
    expect(run.stderr).toContain(`${zone}:18:27: custom_rules.block-bad-networks.expression: $hosts is a hostname list, but ip.src is an IP field: a hostname list goes with http.host`);
    expect(run.stdout).toContain('2 manifest errors');
    expect(run.code).toBe(1);

    // The lists exist in the account once applied; without the account manifest, plan checks against the live account.
    writeFileSync(zone, original);
    expect((await zonewall(['apply', dir, '--auto-approve', ...state])).code).toBe(0);
    const live = join(tmp.dir, 'plan-names-live');
    cpSync(zone, join(live, 'lists.example.com.yaml'));
    const clean = await zonewall(['plan', live, '--detailed-exitcode', ...state]);
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    // apply checks the same way: the live account's lists satisfy the zone manifest on its own.
    const applied = await zonewall(['apply', live, '--auto-approve', ...state]);
    expect(applied.stderr).not.toContain('unknown list');
    expect(applied.code).toBe(0);
    writeFileSync(join(live, 'lists.example.com.yaml'), original.replace('ip.src in $office_ips', 'ip.src in $office_ip').replace('ip.src.asnum in $blocked_asns', 'ip.src in $hosts'));
    const refused = await zonewall(['plan', live, '--json', ...state]);
    const doc = JSON.parse(refused.stdout) as { errors: { code: string; message: string }[] };
    expect(doc.errors.map((e) => e.code)).toEqual(['ERR_MANIFEST', 'ERR_MANIFEST']);
    expect(doc.errors[0]!.message).toBe(`${join(live, 'lists.example.com.yaml')}:12:27: custom_rules.allow-office.expression: unknown list $office_ip: the live account "zonewall engine" (and no account manifest in this run) has no list of that name; did you mean $office_ips?`);
    expect(doc.errors[1]!.message).toContain(':18:27: custom_rules.block-bad-networks.expression: $hosts is a hostname list, but ip.src is an IP field');
    expect(refused.code).toBe(1);
    const refusedApply = await zonewall(['apply', live, '--auto-approve', ...state]);
    expect(refusedApply.stderr).toContain(`${join(live, 'lists.example.com.yaml')}:12:27: custom_rules.allow-office.expression: unknown list $office_ip: the live account "zonewall engine"`);
    expect(refusedApply.stderr).toContain('nothing applied: fix the manifest errors above first');
    expect(refusedApply.code).toBe(1);
  });
});

describe('a saved plan records the account\'s lists fingerprint (issue 30)', () => {
  it('apply FILE refuses with ERR_STALE_PLAN when the lists changed since the plan was saved; nothing is written', { timeout: 300_000 }, async () => {
    const dir = join(tmp.dir, 'stale');
    cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
    const state = ['--state-dir', join(tmp.dir, 'stale-state')];
    expect((await zonewall(['apply', dir, '--auto-approve', ...state])).code).toBe(0);
    const account = join(dir, 'account.yaml');
    writeFileSync(account, readFileSync(account, 'utf8').replace('- 192.0.2.0/24', '- 192.0.2.0/25'));
    const file = join(tmp.dir, 'stale-plan.json');
    expect((await zonewall(['plan', dir, '--out', file, ...state])).code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { lists?: { fingerprint?: string } };
    expect(doc.lists?.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);

    // Someone changes the account's lists in between (another manifest's apply, the dashboard).
    const other = join(tmp.dir, 'stale-other');
    cpSync(dir, other, { recursive: true });
    const otherAccount = join(other, 'account.yaml');
    writeFileSync(otherAccount, readFileSync(otherAccount, 'utf8').replace('- 192.0.2.0/25', '- 192.0.2.0/24').replace('- 64496', '- 64497'));
    expect((await zonewall(['apply', other, '--auto-approve', ...state])).code).toBe(0);

    const refused = await zonewall(['apply', file, '--auto-approve', ...state]);
    expect(refused.stderr).toContain('the lists of account zonewall engine changed since the plan was saved');
    expect(refused.stderr).toContain('(ERR_STALE_PLAN)');
    expect(refused.code).not.toBe(0);
    // Nothing was written: the other apply's lists are there as it left them.
    const clean = await zonewall(['plan', other, '--detailed-exitcode', ...state]);
    expect(clean.stdout).toContain('No changes. The lists match the account manifest.');
    expect(clean.code).toBe(0);
  });
});
