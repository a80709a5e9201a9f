/**
 * A zone write asks the account's object for its lists only when its body can name one (a `$`
 * somewhere in it): a write of rules that use no list makes no account call (issue 30). The
 * refusals that need the lists (10311 unknown list, 10310 list in use) are in references.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { mentionsList } from '../../../src/engine/dispatch.js';
import { resources, V4Dispatcher, type ApiResponse, type ZoneCall, type ZoneDirectory, type ZoneInfo } from '../../../src/engine/workerd.js';
import { DefaultAccount } from '../../../src/engine/index.js';

const zone: ZoneInfo = { id: 'a'.repeat(32), name: 'example.com', plan: 'enterprise', status: 'active', created_on: '2026-01-01T00:00:00Z' };
const ok: ApiResponse = { status: 200, body: { success: true, errors: [], messages: [], result: null } } as ApiResponse;

function front() {
  const calls: ZoneCall[] = [];
  let catalogs = 0;
  const dispatcher = new V4Dispatcher({
    resources, strict: false, directory: {} as ZoneDirectory, logError: () => {},
    zoneById: () => zone,
    callZone: async (call) => { calls.push(call); return ok; },
    accounts: {
      accountById: () => ({ ...DefaultAccount }),
      callAccount: async () => ok,
      catalog: async () => { catalogs++; return [{ name: 'office', kind: 'ip' }]; },
      zonesOf: async () => [zone],
      zoneReferences: async () => [],
    },
  });
  return { dispatcher, calls, catalogs: () => catalogs };
}

const custom = `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`;

describe('zone writes and the account object', () => {
  it('a write whose rules use no list makes no account call; one that names $office does, and carries the lists', async () => {
    const f = front();
    await f.dispatcher.respond({ method: 'PUT', path: custom, body: { rules: [{ ref: 'a', action: 'block', expression: 'ip.src eq 192.0.2.1' }] } });
    await f.dispatcher.respond({ method: 'POST', path: `/zones/${zone.id}/filters`, body: [{ expression: 'http.host eq "example.com"' }] });
    expect(f.catalogs()).toBe(0);
    expect(f.calls.map((c) => c.lists)).toEqual([undefined, undefined]);
    await f.dispatcher.respond({ method: 'PUT', path: custom, body: { rules: [{ ref: 'b', action: 'skip', expression: 'ip.src in $office', action_parameters: { ruleset: 'current' } }] } });
    expect(f.catalogs()).toBe(1);
    expect(f.calls[2]!.lists?.map((l) => l.name)).toContain('office');
  });

  it('mentionsList finds a $ in any string of the body, however deep', () => {
    expect(mentionsList({ rules: [{ expression: 'ip.src in $office' }] })).toBe(true);
    expect(mentionsList([{ filter: { expression: 'http.request.uri.path matches "^/a$"' } }])).toBe(true);
    expect(mentionsList({ rules: [{ expression: 'ip.src eq 192.0.2.1', enabled: true, n: 1 }] })).toBe(false);
    expect(mentionsList(undefined)).toBe(false);
  });
});
