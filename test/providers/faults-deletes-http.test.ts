/**
 * A DELETE whose answer is lost after the server applied it: the transport sends it again (a DELETE
 * is idempotent), and the second one meets the object gone (404). For a list, a Page Rule and a
 * previous WAF URI-based override (`migrate overrides --delete`) that
 * 404 stopped the apply with "refused with HTTP 404" although the delete was done (the rest of the
 * zone's writes not attempted); a rule of a phase already read it as done. Now a 404 for an object
 * the service no longer has is the delete done, and a 404 for one it still has stays an error.
 * Through the HTTP provider, against the real engine behind `zonewall serve`, with the fault proxy.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/providers/index.js';
import { apiPath, openFaultHarness, type FaultHarness, type Intercepted } from './faults-harness.js';

let h: FaultHarness;
beforeEach(async () => { h = await openFaultHarness('deletes-faults.example'); });
afterEach(async () => { await h.close(); });

/** Sends the call to the real engine, then drops the connection: the delete took effect, its answer is lost. */
function appliedThenLost(counter: { n: number }) {
  return async (req: Intercepted): Promise<never> => {
    counter.n++;
    await h.engine.dispatch({ method: req.method, path: new URL(req.uri, 'http://x').pathname.replace(/^\/client\/v4/, '') });
    throw new Error('connection reset after the write');
  };
}

/** The zone's Page Rules as the engine itself has them (not through the faults). */
async function pageRuleIds(): Promise<string[]> {
  const res = await h.engine.dispatch({ method: 'GET', path: `/zones/${h.zone.id}/pagerules` });
  return (res.body as { result: { id: string }[] }).result.map((r) => r.id);
}

const notFound = (what: string): [number, object] => [404, { success: false, errors: [{ code: 1002, message: `${what} not found` }], messages: [], result: null }];

describe('a DELETE whose answer is lost, sent again, meets the object gone', () => {
  it('a list: the delete is done, not an error', async () => {
    const account = await h.provider.resolveAccount('zonewall engine');
    const list = await h.provider.createList(account.id, { name: 'old', kind: 'ip' });
    const lost = { n: 0 };
    h.faults.on('DELETE', apiPath(`/accounts/${account.id}/rules/lists/${list.id}`), appliedThenLost(lost));
    await h.provider.deleteList(account.id, list.id);
    expect(lost.n).toBe(1);
    expect(h.retries.map((r) => r.method)).toEqual(['DELETE']);
    expect((await h.provider.listLists(account.id)).map((l) => l.name)).toEqual([]);
  });

  it('a list the service still has: its 404 stays an error', async () => {
    const account = await h.provider.resolveAccount('zonewall engine');
    const list = await h.provider.createList(account.id, { name: 'kept', kind: 'ip' });
    h.faults.on('DELETE', apiPath(`/accounts/${account.id}/rules/lists/${list.id}`), notFound('list'));
    await expect(h.provider.deleteList(account.id, list.id)).rejects.toBeInstanceOf(ServiceError);
    expect((await h.provider.listLists(account.id)).map((l) => l.name)).toEqual(['kept']);
  });

  it('a Page Rule: the delete is done, not an error', async () => {
    await h.close();
    h = await openFaultHarness('deletes-pagerules.example');
    const rule = await h.provider.createPageRule(h.zone.id, { targets: [{ target: 'url', constraint: { operator: 'matches', value: 'deletes-pagerules.example/old/*' } }], actions: [{ id: 'disable_security' }], priority: 1, status: 'active' });
    const lost = { n: 0 };
    h.faults.on('DELETE', apiPath(`/zones/${h.zone.id}/pagerules/${rule.id}`), appliedThenLost(lost));
    await h.provider.deletePageRule(h.zone.id, rule.id);
    expect(lost.n).toBe(1);
    expect(await pageRuleIds()).toEqual([]);
  });

  it('a Page Rule the zone still has: its 404 stays an error', async () => {
    const rule = await h.provider.createPageRule(h.zone.id, { targets: [{ target: 'url', constraint: { operator: 'matches', value: 'deletes-faults.example/kept/*' } }], actions: [{ id: 'disable_security' }], priority: 1, status: 'active' });
    h.faults.on('DELETE', apiPath(`/zones/${h.zone.id}/pagerules/${rule.id}`), notFound('Page Rule'));
    await expect(h.provider.deletePageRule(h.zone.id, rule.id)).rejects.toBeInstanceOf(ServiceError);
    expect(await pageRuleIds()).toEqual([rule.id]);
  });

  it('a previous WAF URI-based override: the delete is done, not an error', async () => {
    const zone = await h.engine.createZone('deletes-previous.example', { plan: 'enterprise', waf: 'previous' });
    const rule = (await h.provider.readZone(zone.id)).previousWaf!.rules[0]!;
    const made = await h.engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/firewall/waf/overrides`, body: { urls: ['deletes-previous.example/*'], rules: { [rule.id]: 'disable' } } });
    const id = (made.body as { result: { id: string } }).result.id;
    const lost = { n: 0 };
    h.faults.on('DELETE', apiPath(`/zones/${zone.id}/firewall/waf/overrides/${id}`), appliedThenLost(lost));
    await h.provider.deleteWafOverride(zone.id, id);
    expect(lost.n).toBe(1);
    expect((await h.provider.readZone(zone.id)).previousWaf!.overrides).toEqual([]);
  });
});
