/**
 * `--against-zone` where the zone's rules use the account's lists: what is evaluated here (every
 * case where the service has no trace operation, a burst where it has no burst route) resolves
 * `$name` to the account's lists as read through the provider, so the answers are the service's
 * own; only the lists the zone's expressions name are read, once per run, and nothing is read when
 * the service evaluates everything itself. (`test/e2e/against-zone-lists.test.ts` runs the same
 * against `zonewall serve --strict`.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyZone } from '../../src/apply/index.js';
import { diffZone, readsFor } from '../../src/plan/index.js';
import { runAgainstZone, runPolicyTests, type CaseResult } from '../../src/policy/index.js';
import { namedLists, readLiveLists } from '../../src/policy/live-lists.js';
import { openProvider, type Provider } from '../../src/providers/index.js';
import { casesOf, desiredOf } from './fixtures.js';

const desiredText = `zone: lists-live.example.com
plan: enterprise
custom_rules:
  block-listed:
    action: block
    expression: ip.src in $blocked and not http.host in $trusted_hosts
rate_limiting_rules:
  crawlers:
    action: block
    expression: ip.src in $crawlers
    ratelimit: {characteristics: [ip.src], period: 10, requests_per_period: 2, mitigation_timeout: 60}
`;
const desired = desiredOf(desiredText);

const casesText = `cases:
  - name: a listed address is blocked
    request: { ip: 203.0.113.9 }
    expect: { action: block, matched: custom_rules.block-listed }
  - name: a listed address on a trusted host (a *. hostname item) passes
    request: { ip: 203.0.113.9, host: api.lists-live.example.com }
    expect: { allowed: true }
  - name: an address not listed passes
    request: { ip: 198.51.100.9 }
    expect: { allowed: true }
  - name: a listed crawler is blocked on its third request
    request: { path: /, ip: 192.0.2.9 }
    burst: { count: 3, over: 3 }
    expect: { first: { request: 3, action: block, rule: rate_limiting_rules.crawlers, until: 62 } }
  - name: a crawler not listed is not counted
    request: { path: /, ip: 192.0.2.200 }
    burst: { count: 3, over: 3 }
    expect: { acted: 0 }
`;
const cases = casesOf(casesText).cases;

const answers = (results: CaseResult[]) => results.map((r) => [r.name, r.pass, r.actual, r.failures]);

describe('--against-zone evaluated here resolves $name to the account\'s lists as read', () => {
  let dir: string;
  let provider: Provider;
  let accountId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zw-policy-live-lists-'));
    provider = await openProvider({ stateDir: dir });
    const { zone } = await provider.resolveZone(desired.zone, { create: { plan: 'enterprise' } });
    accountId = zone.account?.id ?? (await provider.resolveAccount('zonewall engine')).id;
    const lists: [string, 'ip' | 'hostname', object[]][] = [
      ['blocked', 'ip', [{ ip: '203.0.113.0/24' }]],
      ['crawlers', 'ip', [{ ip: '192.0.2.0/28' }]],
      ['trusted_hosts', 'hostname', [{ hostname: { url_hostname: '*.lists-live.example.com' } }]],
      ['unused', 'ip', [{ ip: '198.51.100.9' }]],
    ];
    for (const [name, kind, items] of lists) {
      const list = await provider.createList(accountId, { name, kind });
      await provider.waitForListOperation(accountId, await provider.addListItems(accountId, list.id, items as never), { sleep: async () => {} });
    }
    const result = await applyZone(diffZone(desired, await provider.readZone(zone.id, readsFor(desired))), provider, { force: true });
    expect(result.ok).toBe(true);
  });
  afterAll(async () => {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The provider without the operations named, counting list reads. */
  function counted(without: readonly string[]): { provider: Provider; reads: string[] } {
    const reads: string[] = [];
    const p: Record<string, unknown> = {
      ...provider,
      listLists: (id: string) => { reads.push('lists'); return provider.listLists(id); },
      listItems: (id: string, listId: string) => { reads.push(listId); return provider.listItems(id, listId); },
    };
    for (const name of without) p[name] = undefined;
    return { provider: Object.setPrototypeOf(p, Object.getPrototypeOf(provider)) as Provider, reads };
  }

  it('the service evaluating every case itself: every case passes, no list is read', async () => {
    const full = counted([]);
    const results = await runAgainstZone(full.provider, desired, cases);
    expect(results.filter((r) => !r.pass).map((r) => [r.name, r.failures])).toEqual([]);
    expect(full.reads).toEqual([]);
  });

  it('no trace, no tracer, no burst route: the same answers, the named lists read once each, the others not', async () => {
    const expected = answers(await runAgainstZone(provider, desired, cases));
    const local = counted(['trace', 'requestTrace', 'requestTraceBatch', 'traceBurst']);
    expect(answers(await runAgainstZone(local.provider, desired, cases))).toEqual(expected);
    const ids = new Map((await provider.listLists(accountId)).map((l) => [l.id, l.name]));
    expect(local.reads[0]).toBe('lists');
    expect(local.reads.slice(1).map((id) => ids.get(id)).sort()).toEqual(['blocked', 'crawlers', 'trusted_hosts']);
  });

  it('a tracer but no burst route (the real service): the bursts run here with the lists', async () => {
    const noBurst = counted(['traceBurst']);
    const results = await runAgainstZone(noBurst.provider, desired, cases);
    expect(results.filter((r) => !r.pass).map((r) => [r.name, r.failures])).toEqual([]);
    expect(noBurst.reads.filter((r) => r === 'lists')).toEqual(['lists']);
  });

  /** `p` whose zones do not say their account. */
  function anonymous(p: Provider): Provider {
    const resolveZone = p.resolveZone.bind(p);
    return Object.setPrototypeOf({ ...p, resolveZone: async (zone: string) => {
      const { zone: info, missing } = await resolveZone(zone);
      const { account: _account, ...rest } = info;
      return { zone: rest, missing };
    } }, Object.getPrototypeOf(provider)) as Provider;
  }

  it('a service that does not say the zone\'s account: no list is read, $name matches nothing here (the listed crawler is not counted), and the note says so', async () => {
    const local = counted(['trace', 'requestTrace', 'requestTraceBatch', 'traceBurst']);
    const notes: string[] = [];
    const results = await runAgainstZone(anonymous(local.provider), desired, cases, { notes });
    expect(local.reads).toEqual([]);
    expect(results.find((r) => r.name === 'a listed crawler is blocked on its third request')!.why).toBe('no request of 3 got an action');
    expect(notes).toEqual([
      '$blocked, $trusted_hosts, $crawlers: the service does not say the zone\'s account, so its lists were not read: where zonewall evaluates the rules itself (the service has no tracer, or a burst has no route) these match nothing, '
      + 'so a rule that uses one never matches there and a verdict that depends on it may differ from the service\'s; an account manifest (`account:`) in the run names the account to read them from',
    ]);
  });

  it('a service that does not say the zone\'s account, evaluating every case itself: nothing read, no note', async () => {
    const full = counted([]);
    const notes: string[] = [];
    const results = await runAgainstZone(anonymous(full.provider), desired, cases, { notes });
    expect(results.filter((r) => !r.pass).map((r) => r.name)).toEqual([]);
    expect([full.reads, notes]).toEqual([[], []]);
  });

  it('a service that does not say the zone\'s account, with the run\'s account manifest: that account\'s lists are read, the answers are the service\'s, and the note says whose', async () => {
    const expected = answers(await runAgainstZone(provider, desired, cases));
    const local = counted(['trace', 'requestTrace', 'requestTraceBatch', 'traceBurst']);
    const notes: string[] = [];
    expect(answers(await runAgainstZone(anonymous(local.provider), desired, cases, { account: 'zonewall engine', notes }))).toEqual(expected);
    expect(local.reads.filter((r) => r === 'lists')).toEqual(['lists']);
    expect(notes).toEqual(['$blocked, $trusted_hosts, $crawlers: the service does not say the zone\'s account, so where zonewall evaluates the rules itself these are the lists of the account manifest\'s account "zonewall engine", read through the provider']);
  });

  it('zonewall test --against-zone: the report of a zone whose service does not say its account says whose lists were read', async () => {
    const d = mkdtempSync(join(tmpdir(), 'zw-policy-live-lists-run-'));
    try {
      writeFileSync(join(d, 'account.yaml'), 'account: zonewall engine\nlists:\n  blocked: {kind: ip, items: [203.0.113.0/24]}\n  crawlers: {kind: ip, items: [192.0.2.0/28]}\n'
        + '  trusted_hosts: {kind: hostname, items: ["*.lists-live.example.com"]}\n');
      writeFileSync(join(d, 'z.yaml'), desiredText);
      writeFileSync(join(d, 'z.tests.yaml'), casesText);
      const local = counted(['trace', 'requestTrace', 'requestTraceBatch', 'traceBurst']);
      const run = await runPolicyTests([d], { againstZone: anonymous(local.provider) });
      expect(run.errors).toEqual([]);
      expect(run.reports.map((r) => [r.passed, r.failed, r.notes])).toEqual([[5, 0, [expect.stringMatching(/^\$blocked, \$trusted_hosts, \$crawlers: the service does not say the zone's account, so where zonewall evaluates the rules itself these are the lists of the account manifest's account "zonewall engine"/)]]]);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('names the lists an expression may use, managed ones included', () => {
    expect([...namedLists(['ip.src in $office and ip.src.asnum in $bad_asns', 'ip.src in $cf.open_proxies', 'http.host eq "x"'])]).toEqual(['office', 'bad_asns', 'cf.open_proxies']);
  });

  it('managed lists hold the engine\'s documented sample where evaluated here, and are not read (the service does not list them)', async () => {
    const liveWith = (expression: string) => ({ firewallRules: [], entrypoint: null, customEntrypoint: { rules: [{ expression }] }, rateLimitEntrypoint: null }) as never;
    const only = counted([]);
    expect(await readLiveLists(only.provider, liveWith('ip.src in $cf.open_proxies'), { id: accountId })).toEqual({ 'cf.open_proxies': ['192.0.2.66', '198.51.100.0/29'] });
    expect(only.reads).toEqual([]);
    const mixed = counted([]);
    const lists = await readLiveLists(mixed.provider, liveWith('ip.src in $blocked or ip.src in $cf.vpn'), { id: accountId });
    expect(Object.keys(lists!).sort()).toEqual(['blocked', 'cf.vpn']);
    expect(lists!['cf.vpn']).toEqual(['203.0.113.128/27']);
    expect(mixed.reads[0]).toBe('lists');
    expect(await readLiveLists(only.provider, liveWith('ip.src in $cf.malware'), undefined)).toEqual({ 'cf.malware': ['192.0.2.200'] });
  });
});
