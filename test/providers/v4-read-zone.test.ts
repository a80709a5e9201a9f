import { describe, it, expect } from 'vitest';
import { V4Client } from '../../src/providers/v4/client.js';
import { ServiceError } from '../../src/providers/v4/errors.js';
import { normalizeMigrationStatus, readZone } from '../../src/providers/v4/read-zone.js';
import { FakeTransport, error, ok } from './fake-transport.js';

const zone = { id: 'z', name: 'example.com' };
const base = '/zones/z';
const page = (items: unknown[]) => ({ ...ok(items), body: { ...ok(items).body, result_info: { page: 1, per_page: 100, count: items.length, total_count: items.length, total_pages: 1 } } });

function zoneWith(status: Record<string, unknown>): FakeTransport {
  const fake = new FakeTransport();
  fake.canned.set(`GET ${base}/waf_migration/status`, ok(status));
  fake.canned.set(`GET ${base}/rulesets/phases/http_request_firewall_managed/entrypoint`, error(404, 10003, 'could not find entrypoint ruleset in the http_request_firewall_managed phase'));
  fake.canned.set(`GET ${base}/rulesets/phases/http_request_firewall_custom/entrypoint`, error(404, 10003, 'could not find entrypoint ruleset in the http_request_firewall_custom phase'));
  return fake;
}

describe('readZone', () => {
  it('reads the previous WAF package by package and the overrides, with a null entry point', async () => {
    const fake = zoneWith({ migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled' });
    fake.canned.set(`GET ${base}/firewall/waf/packages`, page([{ id: 'p1', name: 'OWASP', detection_mode: 'anomaly' }, { id: 'p2', name: 'CloudFlare', detection_mode: 'traditional' }]));
    for (const p of ['p1', 'p2']) {
      fake.canned.set(`GET ${base}/firewall/waf/packages/${p}/groups`, page([{ id: `${p}g`, name: 'g', mode: 'on', package_id: p }]));
      fake.canned.set(`GET ${base}/firewall/waf/packages/${p}/rules`, page([{ id: `${p}r`, mode: 'on', package_id: p, allowed_modes: ['on', 'off'], group: { id: `${p}g`, name: 'g' } }]));
    }
    fake.canned.set(`GET ${base}/firewall/waf/overrides`, page([]));
    fake.filters.push({ id: 'f1', expression: 'true', paused: false });
    const live = await readZone(new V4Client(fake), zone);
    expect(live.zone).toEqual(zone);
    expect(live.filters.map((f) => f.id)).toEqual(['f1']);
    expect(live.entrypoint).toBeNull();
    expect(live.customEntrypoint).toBeNull();
    expect(live.previousWaf?.groups.map((g) => g.id)).toEqual(['p1g', 'p2g']);
    expect(live.previousWaf?.rules.map((r) => r.id)).toEqual(['p1r', 'p2r']);
    expect(live.migration?.waf_state).toBe('previous_only');
    // status, filters, rules, managed, custom and rate limiting entry points, Page Rules, packages, 2 x (groups, rules), overrides
    expect(fake.stats.requests).toBe(13);
    expect(live.rateLimitEntrypoint).toBeNull();
  });

  it('reads the Page Rules, and takes a 404 as "no Page Rules API" (undefined, not empty)', async () => {
    const fake = zoneWith({ migration_state: 'done', old_waf_status: 'disabled', new_waf_status: 'enabled', waf_state: 'new_only' });
    const rule = { id: 'pr1', targets: [{ target: 'url', constraint: { operator: 'matches', value: '*example.com/img/*' } }], actions: [{ id: 'disable_security' }], priority: 1, status: 'active' };
    fake.canned.set(`GET ${base}/pagerules`, ok([rule]));
    expect((await readZone(new V4Client(fake), zone)).pageRules).toEqual([rule]);
    fake.canned.set(`GET ${base}/pagerules`, error(404, 7003, 'Could not route to /zones/x/pagerules'));
    expect((await readZone(new V4Client(fake), zone)).pageRules).toBeUndefined();
  });

  it('does not read the previous WAF of a zone that finished migrating', async () => {
    const fake = zoneWith({ migration_state: 'done', old_waf_status: 'disabled', new_waf_status: 'enabled', waf_state: 'new_only' });
    const live = await readZone(new V4Client(fake), zone);
    expect(live.previousWaf).toBeNull();
    expect(fake.log.some((r) => r.path.includes('/waf/'))).toBe(false);
  });

  it('takes a 4xx refusal of the package list as "no previous WAF", but not an auth refusal', async () => {
    const fake = zoneWith({ migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled' });
    fake.canned.set(`GET ${base}/firewall/waf/packages`, error(403, 10210, 'the previous WAF needs a Pro plan or higher'));
    expect((await readZone(new V4Client(fake), zone)).previousWaf).toBeNull();
    fake.canned.set(`GET ${base}/firewall/waf/packages`, error(403, 10000, 'Authentication error'));
    await expect(readZone(new V4Client(fake), zone)).rejects.toBeInstanceOf(ServiceError);
  });

  it('reads the custom phase entry point, and surfaces its read failures other than "not found"', async () => {
    const fake = zoneWith({ migration_state: 'done', old_waf_status: 'disabled', new_waf_status: 'enabled', waf_state: 'new_only' });
    const entry = { id: 'e1', name: 'default', kind: 'zone', phase: 'http_request_firewall_custom', version: '3', rules: [{ id: 'r1', ref: 'a', action: 'block', expression: 'true', enabled: true }] };
    fake.canned.set(`GET ${base}/rulesets/phases/http_request_firewall_custom/entrypoint`, ok(entry));
    expect((await readZone(new V4Client(fake), zone)).customEntrypoint).toEqual(entry);
    fake.canned.set(`GET ${base}/rulesets/phases/http_request_firewall_custom/entrypoint`, error(403, 10000, 'Authentication error'));
    await expect(readZone(new V4Client(fake), zone)).rejects.toThrow(/Authentication error/);
  });

  it('surfaces an entry point read failure other than "not found"', async () => {
    const fake = zoneWith({ migration_state: 'start', old_waf_status: 'disabled', new_waf_status: 'enabled' });
    fake.canned.set(`GET ${base}/rulesets/phases/http_request_firewall_managed/entrypoint`, error(403, 10000, 'Authentication error'));
    await expect(readZone(new V4Client(fake), zone)).rejects.toThrow(/Authentication error/);
  });

  it('has no migration status when the service has no migration API', async () => {
    const fake = zoneWith({});
    fake.canned.set(`GET ${base}/waf_migration/status`, error(404, 7003, 'Could not route'));
    fake.canned.set(`GET ${base}/firewall/waf/packages`, error(404, 7003, 'Could not route'));
    const live = await readZone(new V4Client(fake), zone);
    expect(live.migration).toBeNull();
    expect(live.previousWaf).toBeNull();
  });
});

describe('normalizeMigrationStatus', () => {
  it.each([
    [{ old_waf_status: 'enabled', new_waf_status: 'disabled' }, 'previous_only'],
    [{ old_waf_status: 'enabled', new_waf_status: 'enabled' }, 'both'],
    [{ old_waf_status: 'disabled', new_waf_status: 'enabled' }, 'new_only'],
    [{ old_waf_status: 'enabled', new_waf_status: 'enabled', waf_state: 'new_only' }, 'new_only'],
  ] as const)('derives waf_state of %j as %s', (raw, state) => {
    expect(normalizeMigrationStatus({ migration_state: 'x', ...raw }).waf_state).toBe(state);
  });
});
