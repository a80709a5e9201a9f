/**
 * The v4 client's custom phase writes under lost answers: a single-rule POST whose answer is lost
 * is looked up by ref before it is sent again (never duplicated), and a DELETE of a rule that is
 * already gone (a retried DELETE) is done; other refusals pass through.
 */
import { describe, expect, it } from 'vitest';
import { V4Client } from '../../src/providers/v4/client.js';
import { createPhaseRule, deletePhaseRule } from '../../src/providers/v4/rules-phase.js';

const phase = 'http_request_firewall_custom';
type Entry = ReturnType<typeof entry>;
const createCustomRule = (c: V4Client, z: string, id: string, b: typeof body, p?: { index: number }) => createPhaseRule<Entry>(c, z, phase, id, b, p);
const deleteCustomRule = (c: V4Client, z: string, id: string, rule: string) => deletePhaseRule<Entry>(c, z, phase, id, rule);
import { ServiceError } from '../../src/providers/v4/errors.js';
import { FakeTransport, error, ok } from './fake-transport.js';

const entry = (refs: string[]) => ({ id: 'e1', name: 'default', kind: 'zone', phase: 'http_request_firewall_custom', version: String(refs.length),
  rules: refs.map((ref) => ({ id: `id-${ref}`, ref, action: 'block', expression: 'true', enabled: true })) });
const read = 'GET /zones/z/rulesets/phases/http_request_firewall_custom/entrypoint';
const body = { ref: 'new', action: 'block', expression: 'true', enabled: true };

describe('custom phase writes under lost answers', () => {
  it('a POST applied but unanswered is found by ref and not sent again', async () => {
    const fake = new FakeTransport();
    fake.canned.set('POST /zones/z/rulesets/e1/rules', ok(entry(['a', 'new'])));
    fake.canned.set(read, ok(entry(['a', 'new'])));
    fake.fault = (r) => (r.method === 'POST' ? 'lost-after-apply' : undefined);
    const result = await createCustomRule(new V4Client(fake), 'z', 'e1', body, { index: 1 });
    expect(result.rules.map((r) => r.ref)).toEqual(['a', 'new']);
    expect(fake.count('POST', '/rules')).toBe(1);
  });

  it('a POST lost before the service applied it is sent again once the rule is known to be missing', async () => {
    const fake = new FakeTransport();
    fake.canned.set('POST /zones/z/rulesets/e1/rules', ok(entry(['a', 'new'])));
    fake.canned.set(read, ok(entry(['a'])));
    fake.fault = (r, i) => (r.method === 'POST' && i === 0 ? 'lost-before-apply' : undefined);
    const result = await createCustomRule(new V4Client(fake), 'z', 'e1', body);
    expect(result.rules.map((r) => r.ref)).toEqual(['a', 'new']);
    expect(fake.count('POST', '/rules')).toBe(2);
  });

  it('a DELETE of a rule already gone returns the ruleset; another refusal passes through', async () => {
    const fake = new FakeTransport();
    fake.canned.set('DELETE /zones/z/rulesets/e1/rules/id-x', error(404, 20208, 'no rule with that id'));
    fake.canned.set(read, ok(entry(['a'])));
    expect((await deleteCustomRule(new V4Client(fake), 'z', 'e1', 'id-x')).rules.map((r) => r.ref)).toEqual(['a']);
    fake.canned.set('DELETE /zones/z/rulesets/e1/rules/id-x', error(404, 20206, 'no ruleset with that id'));
    await expect(deleteCustomRule(new V4Client(fake), 'z', 'e1', 'id-x')).rejects.toBeInstanceOf(ServiceError);
  });
});
