/**
 * Lists on `zonewall serve --runtime workerd` with the real CLI (built dist/, the Worker bundle in
 * Miniflare): examples/lists plans, applies, plans clean, exports round-trip and passes its cases
 * offline and `--against-zone`; and a state directory holding several accounts and their lists
 * (written by the built-in runtime) serves the same accounts, lists and items through workerd as
 * through the built-in runtime (issue 30).
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, startServe, tempDir, zonewall, type Served } from '../helpers/e2e-cli.js';

const token = 'e2e-lists-workerd-token-0123456789abcdefgh';
let tmp: ReturnType<typeof tempDir>;
let served: Served | undefined;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('lists-workerd');
});
afterAll(async () => {
  await served?.stop();
  tmp?.cleanup();
});

async function get<T>(url: string, path: string): Promise<T> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { success: boolean; result: T; errors: unknown[] };
  if (!body.success) throw new Error(`GET ${path}: ${JSON.stringify(body.errors)}`);
  return body.result;
}

/** Every account, its lists and their items, and every zone's account, as the server answers them. */
async function snapshot(url: string): Promise<unknown> {
  const accounts = await get<{ id: string; name: string }[]>(url, '/accounts');
  const out: unknown[] = [];
  for (const account of accounts) {
    const lists = await get<{ id: string; name: string }[]>(url, `/accounts/${account.id}/rules/lists`);
    const withItems = [];
    for (const list of lists) withItems.push({ ...list, items: await get<unknown[]>(url, `/accounts/${account.id}/rules/lists/${list.id}/items?per_page=500`) });
    out.push({ ...account, lists: withItems });
  }
  const zones = await get<{ id: string; name: string; account: unknown }[]>(url, '/zones');
  return { accounts: out, zones: zones.map((z) => ({ id: z.id, name: z.name, account: z.account })).sort((a, b) => a.name.localeCompare(b.name)) };
}

describe('examples/lists on serve --runtime workerd', () => {
  it('plans, applies, plans clean, exports round-trip; its cases pass offline and against the zone', { timeout: 600_000 }, async () => {
    const state = join(tmp.dir, 'journey-state');
    const dir = join(tmp.dir, 'journey');
    cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
    // A remote API never creates zones: the zone exists before the server starts (imported into workerd).
    expect((await zonewall(['engine', 'zone', 'create', 'lists.example.com', '--state-dir', state])).code).toBe(0);
    served = await startServe(state, token, { args: ['--runtime', 'workerd'] });
    const env = { ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: token };
    const plan = await zonewall(['plan', dir], { env });
    expect(plan.stdout).toContain('+ list office_ips (ip): 3 items');
    expect(plan.stdout).toContain('Lists: 2 to add, 0 to change, 0 to destroy; 5 items to add, 0 to remove.');
    expect(plan.code, plan.stderr).toBe(0);
    const applied = await zonewall(['apply', dir, '--auto-approve'], { env });
    expect(applied.stdout).toContain('Lists of account zonewall engine applied.');
    expect(applied.code, applied.stderr).toBe(0);
    const clean = await zonewall(['plan', dir, '--detailed-exitcode'], { env });
    expect(clean.stdout).toContain('No changes. The lists match the account manifest.');
    expect(clean.code, clean.stdout).toBe(0);
    const live = await zonewall(['test', dir, '--against-zone', '--json'], { env });
    expect((JSON.parse(live.stdout) as { reports: { passed: number; failed: number }[] }).reports.map((r) => [r.passed, r.failed])).toEqual([[4, 0]]);
    expect(live.code).toBe(0);
    const offline = await zonewall(['test', dir, '--json']);
    expect((JSON.parse(offline.stdout) as { reports: { passed: number; failed: number }[] }).reports.map((r) => [r.passed, r.failed])).toEqual([[4, 0]]);

    const exported = join(tmp.dir, 'journey-exported');
    const ex = await zonewall(['export', '--account', 'zonewall engine', '--out', join(exported, 'account.yaml')], { env });
    expect(ex.code, ex.stderr).toBe(0);
    cpSync(join(dir, 'lists.example.com.yaml'), join(exported, 'lists.example.com.yaml'));
    const round = await zonewall(['plan', exported, '--detailed-exitcode'], { env });
    expect(round.stdout).toContain('No changes. The lists match the account manifest.');
    expect(round.code, round.stdout).toBe(0);
    await served.stop();
    served = undefined;
  });
});

describe('serve --runtime workerd imports every account of a state directory with its lists', () => {
  it('serves the same accounts, lists, items and zones as the built-in runtime', { timeout: 600_000 }, async () => {
    const state = join(tmp.dir, 'import-state');
    const at = ['--state-dir', state];
    expect((await zonewall(['engine', 'account', 'create', 'acme', ...at])).code).toBe(0);
    expect((await zonewall(['engine', 'zone', 'create', 'acme.example.com', '--account', 'acme', ...at])).code).toBe(0);
    // The default account's lists (examples/lists) and acme's, written by the built-in runtime.
    const defaults = join(tmp.dir, 'import-default');
    cpSync(join(repoRoot, 'examples', 'lists'), defaults, { recursive: true });
    expect((await zonewall(['apply', defaults, '--auto-approve', ...at])).code).toBe(0);
    const acme = join(tmp.dir, 'import-acme');
    mkdirSync(acme);
    writeFileSync(join(acme, 'account.yaml'), [
      'account: acme', 'plan: enterprise', 'lists:',
      '  partners:', '    kind: ip', '    items:', '      - 203.0.113.0/24', '      - value: 2001:db8::/48', '        comment: partner v6',
      '  tenants:', '    kind: hostname', '    items:', '      - shop.example.com', '      - "*.tenants.example.com"', '',
    ].join('\n'));
    writeFileSync(join(acme, 'acme.example.com.yaml'), [
      'zone: acme.example.com', 'plan: enterprise', 'custom_rules:', '  partners:', '    action: skip',
      '    expression: ip.src in $partners', '    action_parameters:', '      ruleset: current', '',
    ].join('\n'));
    const applied = await zonewall(['apply', acme, '--auto-approve', ...at]);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);

    served = await startServe(state, token);
    const builtin = await snapshot(served.url);
    await served.stop();
    served = undefined;
    served = await startServe(state, token, { args: ['--runtime', 'workerd'] });
    const workerd = await snapshot(served.url);
    expect((builtin as { accounts: { name: string; lists: unknown[] }[] }).accounts.map((a) => [a.name, a.lists.length])).toEqual([['zonewall engine', 2], ['acme', 2]]);
    expect(workerd).toEqual(builtin);
    // The lists are live on workerd too: the zone's plan through it is clean.
    const clean = await zonewall(['plan', acme, '--detailed-exitcode'], { env: { ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: token } });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    await served.stop();
    served = undefined;
  });
});
