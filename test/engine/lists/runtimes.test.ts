/**
 * The Lists API over HTTP on both runtimes of `zonewall serve`: the built-in one and workerd (each
 * account a Durable Object beside the zone objects): an account, a zone in it, a list with items,
 * a rule using it, the refusal to delete it and the trace resolving it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, startWorkerdHarness, type HttpHarness, type Reply } from '../helpers.js';

const runtimes: [string, () => Promise<HttpHarness>][] = [
  ['builtin', () => startHarness()],
  ['workerd', () => startWorkerdHarness()],
];

const result = <T>(r: Reply): T => {
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`);
  return r.body.result as T;
};

describe.each(runtimes)('lists on the %s runtime', (_name, start) => {
  let h: HttpHarness;
  beforeAll(async () => { h = await start(); }, 120_000);
  afterAll(async () => { await h.cleanup(); });

  it('serves an account\'s lists to its zones\' rules and trace', async () => {
    const account = result<{ id: string }>(await h.api('POST', '/accounts', { name: 'acme', plan_tier: 'enterprise' })).id;
    const zone = result<{ id: string; account: { id: string } }>(await h.api('POST', '/zones', { name: 'acme.example', account: { id: account } }));
    expect(zone.account.id).toBe(account);
    const base = `/accounts/${account}/rules/lists`;
    const list = result<{ id: string }>(await h.api('POST', base, { name: 'office', kind: 'ip' })).id;
    const op = result<{ operation_id: string }>(await h.api('POST', `${base}/${list}/items`, [{ ip: '203.0.113.0/24', comment: 'office' }])).operation_id;
    expect(result<{ status: string }>(await h.api('GET', `${base}/bulk_operations/${op}`)).status).toBe('completed');
    const custom = `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    expect((await h.api('PUT', custom, { rules: [{ ref: 'office', action: 'block', expression: 'ip.src in $office' }] })).status).toBe(200);
    expect((await h.api('PUT', custom, { rules: [{ ref: 'x', action: 'block', expression: 'ip.src in $missing' }] })).body.errors[0]).toMatchObject({ code: 10311 });
    const refused = await h.api('DELETE', `${base}/${list}`);
    expect(refused.body.errors[0]).toMatchObject({ code: 10310, message: expect.stringContaining('rule office of http_request_firewall_custom in zone acme.example') });
    const trace = result<{ decided_by: string; action: string }>(await h.api('POST', `/zones/${zone.id}/trace`, { ip: '203.0.113.9', path: '/' }));
    expect([trace.decided_by, trace.action]).toEqual(['custom_rules', 'block']);
    const items = result<{ ip: string; comment: string }[]>(await h.api('GET', `${base}/${list}/items`));
    expect(items.map((i) => [i.ip, i.comment])).toEqual([['203.0.113.0/24', 'office']]);
  }, 120_000);
});
