/**
 * `serve` and request bodies nested 100,000 deep, at the top or inside a field the API takes as an
 * object or a list (a filter's description, a rule's action_parameters, a ruleset's overrides): every
 * write route answers with a JSON error envelope (4xx), nothing is logged as an internal error, and
 * the server keeps answering. JSON.parse does not recurse, and no reader walks further than the
 * fields it knows, so the depth never reaches a recursive walk (no stack overflow, no 500).
 * Bodies are sent as raw text: JSON.stringify itself recurses and would overflow here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from './helpers.js';

const Depth = 100_000;
const deepArray = `${'['.repeat(Depth)}${']'.repeat(Depth)}`;
const deepObject = `${'{"a":'.repeat(Depth)}1${'}'.repeat(Depth)}`;
const SomeId = '0123456789abcdef0123456789abcdef';

let harness: Harness;
let errors: string[];
let zoneId: string;
let accountId: string;

beforeAll(async () => {
  errors = [];
  harness = await startHarness({ logError: (message, err) => errors.push(`${message}: ${err instanceof Error ? err.message : String(err)}`) });
  zoneId = await harness.zone('deep.example');
  const zone = await fetch(`${new URL(harness.server.url).origin}/client/v4/zones/${zoneId}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  accountId = ((await zone.json()) as { result: { account: { id: string } } }).result.account.id;
});

afterAll(async () => {
  await harness?.cleanup();
});

/** Sends `body` as it is; the status and the parsed envelope. */
async function send(method: string, route: string, body: string): Promise<{ status: number; envelope: { success?: boolean; errors?: { code?: number }[] } }> {
  const res = await fetch(`${new URL(harness.server.url).origin}${route}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, envelope: (await res.json()) as { success?: boolean; errors?: { code?: number }[] } };
}

/** Write routes, with bodies nested deep at the top and inside the fields that take objects or lists. */
function cases(): [string, string, string][] {
  const z = `/zones/${zoneId}`;
  const inFilter = `[{"expression":"ip.src eq 192.0.2.1","description":${deepArray}}]`;
  const inRule = `[{"action":"block","filter":{"expression":"ip.src eq 192.0.2.1"},"products":${deepArray}}]`;
  const inRuleset = `{"rules":[{"action":"skip","expression":"true","action_parameters":${deepObject}}]}`;
  const inOverrides = `{"rules":[{"action":"execute","expression":"true","action_parameters":{"id":"${SomeId}","overrides":${deepObject}}}]}`;
  // Values that messages quote ("got ...", "unknown ... id ..."), where a recursive quote would overflow.
  const quoted = {
    skipRuleset: `{"rules":[{"action":"skip","expression":"true","action_parameters":{"ruleset":${deepArray}}}]}`,
    action: `{"rules":[{"action":${deepArray},"expression":"true"}]}`,
    kindAndPhase: `{"kind":${deepArray},"phase":${deepObject},"rules":[]}`,
    contentType: `{"rules":[{"action":"block","expression":"true","action_parameters":{"response":{"status_code":403,"content":"no","content_type":${deepArray}}}}]}`,
    managedId: `{"rules":[{"action":"execute","expression":"true","action_parameters":{"id":${deepArray}}}]}`,
    overrideMode: `{"urls":["deep.example/*"],"rules":{"100000":${deepArray}},"groups":{"g":${deepObject}}}`,
    traceUrl: `{"url":${deepArray}}`,
    traceIp: `{"url":"https://deep.example/","ip":${deepObject}}`,
  };
  const routes: [string, string, string[]][] = [
    ['POST', `${z}/filters`, [inFilter]],
    ['PUT', `${z}/filters`, [inFilter]],
    ['PUT', `${z}/filters/${SomeId}`, []],
    ['POST', `${z}/filters/validate-expr`, []],
    ['POST', `${z}/firewall/rules`, [inRule]],
    ['PUT', `${z}/firewall/rules`, [inRule]],
    ['PATCH', `${z}/firewall/rules`, [inRule]],
    ['PUT', `${z}/firewall/rules/${SomeId}`, []],
    ['PATCH', `${z}/firewall/rules/${SomeId}`, []],
    ['PUT', `${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, [inRuleset, quoted.skipRuleset, quoted.action, quoted.kindAndPhase, quoted.contentType]],
    ['PUT', `${z}/rulesets/phases/http_request_firewall_managed/entrypoint`, [inOverrides, quoted.action, quoted.kindAndPhase, quoted.managedId]],
    ['POST', `${z}/rulesets`, [inRuleset]],
    ['PUT', `${z}/rulesets/${SomeId}`, [inRuleset]],
    ['POST', `${z}/rulesets/${SomeId}/rules`, []],
    ['PATCH', `${z}/rulesets/${SomeId}/rules/${SomeId}`, []],
    ['POST', `${z}/pagerules`, []],
    ['PUT', `${z}/pagerules/${SomeId}`, []],
    ['PATCH', `${z}/pagerules/${SomeId}`, []],
    ['POST', `${z}/firewall/waf/overrides`, [quoted.overrideMode]],
    ['PUT', `${z}/firewall/waf/overrides/${SomeId}`, []],
    ['PATCH', `${z}/firewall/waf/packages/${SomeId}`, []],
    ['PATCH', `${z}/settings/waf`, []],
    ['POST', `${z}/trace`, [quoted.traceUrl, quoted.traceIp]],
    ['POST', '/zones', []],
    // Routes added since (rate limiting, bursts, the request tracer and its batch, lists): the same holds.
    ['PUT', `${z}/rulesets/phases/http_ratelimit/entrypoint`, [inRuleset]],
    ['POST', `${z}/trace/burst`, [`{"request":${deepObject},"burst":{"count":2}}`]],
    ['POST', `/accounts/${accountId}/request-tracer/trace`, [quoted.traceUrl]],
    ['POST', `/accounts/${accountId}/request-tracer/trace/batch`, [`{"requests":[${deepObject}]}`]],
    ['POST', `/accounts/${accountId}/rules/lists`, []],
    ['POST', `/accounts/${accountId}/rules/lists/${SomeId}/items`, []],
  ];
  return routes.flatMap(([method, route, nested]) => [deepArray, deepObject, ...nested].map((body): [string, string, string] => [method, route, body]));
}

describe('serve: bodies nested 100,000 deep', () => {
  it('every write route answers with a 4xx error envelope, logs no internal error, and the server goes on', async () => {
    // Every case is sent, and what went wrong is listed whole: one overflow must not hide another.
    const wrong: string[] = [];
    for (const [method, route, body] of cases()) {
      const { status, envelope } = await send(method, `/client/v4${route}`, body);
      const codes = envelope.errors?.map((e) => e.code) ?? [];
      // A 4xx error envelope about the body or the object (the route was found: no 7000 "No route for that URI").
      if (status < 400 || status >= 500 || envelope.success !== false || codes.length === 0 || codes.includes(7000)) {
        wrong.push(`${method} ${route} (${body.slice(0, 40)}...): ${status} ${JSON.stringify(codes)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(errors).toEqual([]);
    const after = await fetch(`${new URL(harness.server.url).origin}/client/v4/zones/${zoneId}/filters`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(after.status, await after.text()).toBe(200);
  }, 60_000);
});
