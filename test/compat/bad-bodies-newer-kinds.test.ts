/**
 * Bad bodies for the newer kinds (lists and their items, rate limiting rules, managed-rules
 * exceptions, WAF custom rules), sent as raw HTTP to `zonewall serve` on 127.0.0.1 (the official
 * client would not send most of them): each is refused as the service refuses a bad body (a 4xx,
 * `success: false`, `errors[]` with a code, a message naming the field and its JSON pointer) and
 * nothing is written. Values a message quotes are quoted short: a value nested 100,000 deep
 * (JSON.stringify would overflow the stack: a 500) or 100,000 characters long. Also: pointers into
 * maps keyed by the body (RFC 6901 escapes), a write without a body, `cf.colo.id` in rate limiting
 * expressions, the counting expression's restrictions and lists, the unconfirmed length limits, every
 * problem of a ruleset creation at once, and an exception's `logging` without `enabled`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from '../engine/helpers.js';

const Depth = 100_000;
const deepArray = `${'['.repeat(Depth)}${']'.repeat(Depth)}`;
const longObject = `{"a":"${'x'.repeat(100_000)}"}`;

interface Answer {
  status: number;
  body: { success: boolean; result: unknown; errors: { code?: number; message: string; source?: { pointer: string } }[] };
}

let h: Harness;
let internal: string[];
let zone: string;
let lists: string;

beforeAll(async () => {
  internal = [];
  h = await startHarness({ logError: (message) => internal.push(message) });
  zone = await h.zone('bad-bodies.example', 'enterprise');
  const account = (await h.api('GET', `/zones/${zone}`)).body.result as { account: { id: string } };
  lists = `/accounts/${account.account.id}/rules/lists`;
});
afterAll(async () => { await h.cleanup(); });

/** Sends `body` as raw text (JSON.stringify could not build the deep ones). */
async function raw(method: string, path: string, body: string): Promise<Answer> {
  const res = await fetch(`${h.server.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** A refusal: 400, `success: false`, one error per problem, each with a code, a short message and the pointer. */
function expectRefused(answer: Answer, pointer: string): void {
  expect(answer.status, JSON.stringify(answer.body.errors).slice(0, 300)).toBe(400);
  expect(answer.body.success).toBe(false);
  expect(answer.body.result).toBeNull();
  const error = answer.body.errors.find((e) => e.source?.pointer === pointer);
  expect(error, JSON.stringify(answer.body.errors).slice(0, 300)).toBeDefined();
  expect(error!.code).toEqual(expect.any(Number));
  expect(error!.message.length).toBeLessThan(400);
}

describe('values a refusal quotes are quoted short, never walked whole', () => {
  it('an ASN item whose value is nested 100,000 deep or 100,000 characters long: 400 at /0/asn, nothing written', async () => {
    const created = await h.api('POST', lists, { name: 'deep_asns', kind: 'asn' });
    const list = (created.body.result as { id: string }).id;
    for (const value of [deepArray, longObject]) {
      expectRefused(await raw('POST', `${lists}/${list}/items`, `[{"asn":13335},{"asn":${value}}]`), '/1/asn');
      expectRefused(await raw('PUT', `${lists}/${list}/items`, `[{"asn":${value}}]`), '/0/asn');
    }
    expect((await h.api('GET', `${lists}/${list}/items`)).body.result).toEqual([]);
    expect(internal).toEqual([]);
  });

  it('a custom skip rule whose phases or products item is nested 100,000 deep or 100,000 characters long: 400 at the item', async () => {
    const path = `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    for (const key of ['phases', 'products']) {
      for (const value of [deepArray, longObject]) {
        const body = `{"rules":[{"action":"skip","expression":"true","action_parameters":{"${key}":[${value}]}}]}`;
        expectRefused(await raw('PUT', path, body), `/rules/0/action_parameters/${key}/0`);
      }
    }
    expect((await h.api('GET', path)).status).toBe(404);
    expect(internal).toEqual([]);
  });
});

describe('a refusal inside a map keyed by the body points at the key escaped as JSON pointers are (RFC 6901)', () => {
  it('a managed-rules exception whose rules map has a key with "/" and "~": the pointer escapes them', async () => {
    const path = `/zones/${zone}/rulesets/phases/http_request_firewall_managed/entrypoint`;
    const body = { rules: [{ action: 'skip', expression: 'true', action_parameters: { rules: { 'a/b~c': ['x'] } } }] };
    expectRefused(await raw('PUT', path, JSON.stringify(body)), '/rules/0/action_parameters/rules/a~1b~0c');
    expect((await h.api('GET', path)).status).toBe(404);
  });

  it('a previous-WAF override whose rules and groups maps have such keys (a sibling reader): the pointers escape them', async () => {
    const path = `/zones/${zone}/firewall/waf/overrides`;
    const answer = await raw('POST', path, JSON.stringify({ urls: ['bad-bodies.example/*'], rules: { '1/0': 'block' }, groups: { 'g~1': 'default' } }));
    expectRefused(answer, '/rules/1~10');
    expectRefused(answer, '/groups/g~01');
    expect((await h.api('GET', path)).body.result).toEqual([]);
  });
});

describe('a write sent without a body says so', () => {
  it('every rulesets write of the newer kinds without a body: 400 at "/", "got no body" (not "got undefined")', async () => {
    const z = `/zones/${zone}/rulesets`;
    const put = await h.api('PUT', `${z}/phases/http_request_firewall_custom/entrypoint`, { rules: [{ action: 'block', expression: 'true', ref: 'a' }] });
    const { id, rules } = put.body.result as { id: string; rules: { id: string }[] };
    for (const [method, path] of [
      ['PUT', `${z}/phases/http_request_firewall_custom/entrypoint`], ['PUT', `${z}/phases/http_ratelimit/entrypoint`],
      ['PUT', `${z}/phases/http_request_firewall_managed/entrypoint`], ['POST', z], ['PUT', `${z}/${id}`],
      ['POST', `${z}/${id}/rules`], ['PATCH', `${z}/${id}/rules/${rules[0]!.id}`],
    ] as const) {
      const answer = await h.api(method, path);
      expect([answer.status, answer.body.success], `${method} ${path}`).toEqual([400, false]);
      expect(answer.body.errors[0], `${method} ${path}`).toMatchObject({ code: 10014, source: { pointer: '/' }, message: expect.stringMatching(/got no body$/) });
    }
    expect(((await h.api('GET', `${z}/phases/http_request_firewall_custom/entrypoint`)).body.result as { version: string }).version).toBe('1');
  });
});

describe('rate limiting rules and cf.colo.id', () => {
  const ratelimit = { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5 };

  it('takes an expression whose string literal holds the text cf.colo.id (only the field is refused)', async () => {
    const path = `/zones/${zone}/rulesets/phases/http_ratelimit/entrypoint`;
    const answer = await h.api('PUT', path, { rules: [{ action: 'block', ref: 'colo-text', expression: 'http.request.uri.path eq "/cf.colo.id"', ratelimit }] });
    expect(answer.status, JSON.stringify(answer.body.errors)).toBe(200);
    await h.api('PUT', path, { rules: [] });
  });

  it('refuses the field cf.colo.id in the expression or the counting expression once, naming it, at the field\'s pointer', async () => {
    const path = `/zones/${zone}/rulesets/phases/http_ratelimit/entrypoint`;
    const before = (await h.api('GET', path)).body.result as { version: string };
    for (const [rule, pointer] of [
      [{ expression: 'cf.colo.id eq 1', ratelimit }, '/rules/0/expression'],
      [{ expression: 'true', ratelimit: { ...ratelimit, counting_expression: 'http.host eq "a" and cf.colo.id eq 1' } }, '/rules/0/ratelimit/counting_expression'],
    ] as const) {
      const answer = await h.api('PUT', path, { rules: [{ action: 'block', ...rule }] });
      expectRefused({ status: answer.status, body: answer.body as never }, pointer);
      expect(answer.body.errors, JSON.stringify(answer.body.errors)).toHaveLength(1);
      expect(answer.body.errors[0]!.message).toContain('cf.colo.id may not appear');
    }
    expect(((await h.api('GET', path)).body.result as { version: string }).version).toBe(before.version);
  });
});

describe('lengths the reference leaves unconfirmed (docs/engine.md: description 500, ref 100)', () => {
  it('refuses a rule ref over 100 or description over 500 characters in every phase, at the field, saving nothing', async () => {
    const rules = {
      http_request_firewall_custom: { action: 'block', expression: 'true' },
      http_ratelimit: { action: 'block', expression: 'true', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5 } },
      http_request_firewall_managed: { action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } },
    };
    const other = await h.zone('lengths.example', 'enterprise');
    for (const [phase, rule] of Object.entries(rules)) {
      const path = `/zones/${other}/rulesets/phases/${phase}/entrypoint`;
      for (const [field, length] of [['ref', 101], ['description', 501]] as const) {
        const answer = await h.api('PUT', path, { rules: [{ ...rule, [field]: 'x'.repeat(length) }] });
        expectRefused({ status: answer.status, body: answer.body as never }, `/rules/0/${field}`);
        expect(answer.body.errors[0]!.message).toContain(`the limit is ${length - 1}`);
      }
      expect((await h.api('PUT', path, { rules: [{ ...rule, ref: 'x'.repeat(100), description: 'x'.repeat(500) }] })).status).toBe(200);
    }
  });
});

describe('rate limiting: a counting expression cannot mix response fields and lists (security-phases.md §1)', () => {
  it('refuses one that does, at the counting expression, saving nothing; takes each kind alone', async () => {
    await h.api('POST', lists, { name: 'counted', kind: 'ip' });
    const path = `/zones/${zone}/rulesets/phases/http_ratelimit/entrypoint`;
    const rule = (counting_expression: string) => ({
      action: 'block', expression: 'http.request.uri.path eq "/login"',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, counting_expression },
    });
    const before = await h.api('GET', path);
    const mixed = await h.api('PUT', path, { rules: [rule('ip.src in $counted and http.response.code eq 401')] });
    expectRefused({ status: mixed.status, body: mixed.body as never }, '/rules/0/ratelimit/counting_expression');
    expect(mixed.body.errors[0]!.message).toMatch(/response field.*list|list.*response field/);
    expect((await h.api('GET', path)).text).toBe(before.text);
    for (const alone of ['ip.src in $counted', 'http.response.code eq 401']) {
      const ok = await h.api('PUT', path, { rules: [rule(alone)] });
      expect(ok.status, JSON.stringify(ok.body.errors)).toBe(200);
    }
  });
});

describe('rate limiting: a list named only in a counting expression is a reference like any other', () => {
  const rule = (counting_expression: string) => ({
    action: 'block', ref: 'counted', expression: 'http.request.uri.path eq "/login"',
    ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, counting_expression },
  });

  it('refuses a counting expression naming a list the account does not have (10311), saving nothing', async () => {
    const other = await h.zone('counting-unknown.example', 'enterprise');
    const path = `/zones/${other}/rulesets/phases/http_ratelimit/entrypoint`;
    const answer = await h.api('PUT', path, { rules: [rule('ip.src in $nowhere')] });
    expect([answer.status, answer.body.success, answer.body.errors.map((e) => e.code)]).toEqual([400, false, [10311]]);
    expect(answer.body.errors[0]!.message).toContain('$nowhere');
    expect((await h.api('GET', path)).status).toBe(404);
  });

  it('refuses to delete a list a counting expression uses (10310, naming the rule), and counts the reference', async () => {
    const other = await h.zone('counting-in-use.example', 'enterprise');
    const created = await h.api('POST', lists, { name: 'counted_only', kind: 'ip' });
    const list = (created.body.result as { id: string }).id;
    const path = `/zones/${other}/rulesets/phases/http_ratelimit/entrypoint`;
    expect((await h.api('PUT', path, { rules: [rule('ip.src in $counted_only')] })).status).toBe(200);
    expect(((await h.api('GET', `${lists}/${list}`)).body.result as { num_referencing_filters: number }).num_referencing_filters).toBe(1);
    const refused = await h.api('DELETE', `${lists}/${list}`);
    expect([refused.status, refused.body.errors.map((e) => e.code)]).toEqual([400, [10310]]);
    expect(refused.body.errors[0]!.message).toContain('rule counted of http_ratelimit');
    expect((await h.api('GET', `${lists}/${list}`)).status).toBe(200);
  });
});

describe('POST /zones/{zone_id}/rulesets lists every problem of the body at once', () => {
  it('a bad name and bad rules of a served phase are refused together, each at its pointer, creating nothing', async () => {
    const other = await h.zone('create-all-problems.example', 'enterprise');
    for (const [phase, badRule, rulePointer] of [
      ['http_ratelimit', { action: 'skip', expression: 'true' }, '/rules/0/action'],
      ['http_request_firewall_custom', { action: 'block', expression: 'http.nope eq 1' }, '/rules/0/expression'],
      ['http_request_firewall_managed', { action: 'execute', expression: 'true', action_parameters: { id: 'f'.repeat(32) } }, '/rules/0/action_parameters/id'],
    ] as const) {
      const answer = await h.api('POST', `/zones/${other}/rulesets`, { name: 7, kind: 'zone', phase, rules: [badRule] });
      expectRefused({ status: answer.status, body: answer.body as never }, '/name');
      expectRefused({ status: answer.status, body: answer.body as never }, rulePointer);
      expect((await h.api('GET', `/zones/${other}/rulesets/phases/${phase}/entrypoint`)).status).toBe(404);
    }
  });
});

describe('a managed-rules exception\'s logging needs its enabled flag, as a custom skip rule\'s does', () => {
  it('refuses logging {} at /rules/0/logging/enabled in both phases, saving nothing', async () => {
    const other = await h.zone('logging-empty.example', 'enterprise');
    for (const [phase, action_parameters] of [
      ['http_request_firewall_managed', { ruleset: 'current' }],
      ['http_request_firewall_custom', { ruleset: 'current' }],
    ] as const) {
      const path = `/zones/${other}/rulesets/phases/${phase}/entrypoint`;
      const answer = await h.api('PUT', path, { rules: [{ action: 'skip', expression: 'true', action_parameters, logging: {} }] });
      expectRefused({ status: answer.status, body: answer.body as never }, '/rules/0/logging/enabled');
      expect((await h.api('GET', path)).status).toBe(404);
    }
  });
});

describe('num_referencing_filters counts rules, not uses', () => {
  it('a rule naming a list twice, or in its expression and its counting expression, counts once, and the refusal to delete counts rules', async () => {
    const other = await h.zone('count-rules.example', 'enterprise');
    const created = await h.api('POST', lists, { name: 'twice', kind: 'ip' });
    const list = (created.body.result as { id: string }).id;
    await h.api('PUT', `/zones/${other}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [{ action: 'block', ref: 'double', expression: 'ip.src in $twice or (http.host eq "a" and ip.src in $twice)' }] });
    await h.api('PUT', `/zones/${other}/rulesets/phases/http_ratelimit/entrypoint`, { rules: [{
      action: 'block', ref: 'both', expression: 'ip.src in $twice',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, counting_expression: 'ip.src in $twice' },
    }] });
    expect(((await h.api('GET', `${lists}/${list}`)).body.result as { num_referencing_filters: number }).num_referencing_filters).toBe(2);
    const refused = await h.api('DELETE', `${lists}/${list}`);
    expect(refused.body.errors[0]!.message).toContain('referenced by 2 rules (');
  });
});
