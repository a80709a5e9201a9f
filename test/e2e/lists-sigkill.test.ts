/**
 * SIGKILL during a list item write, with the real CLI as a child process against `zonewall serve`
 * on a real state directory, through the fault proxy: `zonewall apply` is killed (kill -9) while its
 * item write is in flight, once with the bulk operation pending (the server applied the items, the
 * operation's polls say `pending`) and once with the write's answer not yet back. The next apply
 * converges: every item once, none lost, and the plan after it is clean (issue 30).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProxy, type Intercepted } from '../providers/fault-proxy.js';
import { repoRoot, requireBuild, startServe, tempDir, zonewall, type Served } from '../helpers/e2e-cli.js';

const token = 'e2e-lists-sigkill-token-0123456789abcdefgh';
let tmp: ReturnType<typeof tempDir>;
let served: Served | undefined;
let proxy: FaultProxy | undefined;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('lists-sigkill');
});
afterAll(async () => {
  await proxy?.close();
  await served?.stop();
  tmp?.cleanup();
});

const isItemsPost = (uri: string) => /\/rules\/lists\/[0-9a-f]{32}\/items(\?|$)/.test(uri);
const isOperation = (uri: string) => /\/rules\/lists\/bulk_operations\/[^/?]+/.test(uri);

/** `zonewall apply DIR --auto-approve` through the proxy, as a child process we can kill. */
function applyChild(dir: string, url: string): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ZONEWALL_API_URL: url, ZONEWALL_API_TOKEN: token };
  for (const k of Object.keys(env)) if (k.startsWith('ZONEWALL_') && k !== 'ZONEWALL_API_URL' && k !== 'ZONEWALL_API_TOKEN') delete env[k];
  return spawn(process.execPath, [join(repoRoot, 'bin/zonewall.js'), 'apply', dir, '--auto-approve'], { cwd: repoRoot, env, stdio: 'ignore' });
}

/** Forwards a scripted call to the real server (the write takes effect) and returns its answer. */
async function forward(req: Intercepted): Promise<{ status: number; body: { result: { operation_id: string } } }> {
  const res = await fetch(`${served!.url}${req.uri.replace(/^\/client\/v4/, '')}`, {
    method: req.method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(await req.json()),
  });
  return { status: res.status, body: (await res.json()) as { result: { operation_id: string } } };
}

/** The items of the account's office_ips list as the server has them (every page). */
async function officeItems(): Promise<string[]> {
  const get = async <T>(path: string) => ((await (await fetch(`${served!.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { result: T; result_info?: { cursors?: { after?: string } } });
  const accounts = (await get<{ id: string; name: string }[]>('/accounts')).result;
  const account = accounts.find((a) => a.name === 'zonewall engine')!;
  const list = (await get<{ id: string; name: string }[]>(`/accounts/${account.id}/rules/lists`)).result.find((l) => l.name === 'office_ips')!;
  const out: string[] = [];
  let after: string | undefined;
  do {
    const page = await get<{ ip: string }[]>(`/accounts/${account.id}/rules/lists/${list.id}/items?per_page=500${after === undefined ? '' : `&cursor=${after}`}`);
    out.push(...page.result.map((i) => i.ip));
    after = page.result_info?.cursors?.after;
  } while (after !== undefined);
  return out.sort();
}

function killedWhen(child: ChildProcess, ready: Promise<void>): Promise<string> {
  const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(`${code} ${signal}`)));
  void ready.then(() => child.kill('SIGKILL'));
  return exited;
}

describe('SIGKILL of zonewall apply during a list item write', () => {
  it('the next apply converges with nothing duplicated or lost (bulk operation pending; answer in flight)', { timeout: 300_000 }, async () => {
    const state = join(tmp.dir, 'state');
    expect((await zonewall(['engine', 'zone', 'create', 'lists.example.com', '--state-dir', state])).code).toBe(0);
    served = await startServe(state, token);
    proxy = await FaultProxy.start(served.url);
    const dir = join(tmp.dir, 'lists');
    cpSync(join(repoRoot, 'examples', 'lists'), dir, { recursive: true });
    const account = join(dir, 'account.yaml');
    const original = readFileSync(account, 'utf8');
    const withItems = (from: number, to: number) => original.replace('      - 192.0.2.0/24\n', `      - 192.0.2.0/24\n${Array.from({ length: to - from }, (_, i) => `      - 10.0.${from + i}.0/24\n`).join('')}`);
    const expected = (from: number, to: number) => ['192.0.2.0/24', '198.51.100.7', '2001:db8:10::/48', ...Array.from({ length: to - from }, (_, i) => `10.0.${from + i}.0/24`)].sort();

    // 1. Killed while the bulk operation is pending: the server applied the items, the polls say pending.
    writeFileSync(account, withItems(0, 40));
    let polled!: () => void;
    const pending = new Promise<void>((resolve) => { polled = resolve; });
    proxy.on('GET', isOperation, (req) => {
      polled();
      const id = /bulk_operations\/([^/?]+)/.exec(req.uri)![1]!;
      return [200, { success: true, errors: [], messages: [], result: { id, status: 'pending' } }];
    }, 1_000);
    const first = await killedWhen(applyChild(dir, proxy.url), pending);
    expect(first).toBe('null SIGKILL');
    proxy.clear();
    const again = await zonewall(['apply', dir, '--auto-approve'], { env: { ZONEWALL_API_URL: proxy.url, ZONEWALL_API_TOKEN: token } });
    expect(again.code, again.stderr).toBe(0);
    expect(await officeItems()).toEqual(expected(0, 40));

    // 2. Killed while an item write's answer is in flight: the server applied it, the answer never comes.
    writeFileSync(account, withItems(2, 50));
    let sent!: () => void;
    const inFlight = new Promise<void>((resolve) => { sent = resolve; });
    proxy.on('POST', isItemsPost, async (req) => {
      await forward(req);
      sent();
      return new Promise<never>(() => {}); // held until the client is gone
    });
    const second = await killedWhen(applyChild(dir, proxy.url), inFlight);
    expect(second).toBe('null SIGKILL');
    proxy.clear();
    const converged = await zonewall(['apply', dir, '--auto-approve'], { env: { ZONEWALL_API_URL: proxy.url, ZONEWALL_API_TOKEN: token } });
    expect(converged.code, converged.stderr).toBe(0);
    const items = await officeItems();
    expect(new Set(items).size).toBe(items.length);
    expect(items).toEqual(expected(2, 50));
    const clean = await zonewall(['plan', dir, '--detailed-exitcode'], { env: { ZONEWALL_API_URL: proxy.url, ZONEWALL_API_TOKEN: token } });
    expect(clean.stdout).toContain('No changes. The lists match the account manifest.');
    expect(clean.code, clean.stdout).toBe(0);
  });
});
