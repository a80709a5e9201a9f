/**
 * The burst trace's memo (`burst-memo.ts`): the table of which `vary` dimension can change which
 * field holds for every catalog field against `requestFields` itself, and a burst evaluated with
 * the memo gives exactly the answer of the plain path (every variant through every expression) on
 * a burst that varies everything, with custom rules before, every kind of expression, characteristics
 * from the IP, headers, the host and the path, counting expressions, cached requests and throttles.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { traceBurst, type StoredRuleset, type ZoneTraceInput } from '../../../src/engine/index.js';
import { defaultSettings } from '../../../src/engine/previous-waf/model.js';
import { Dim, fieldDims, headerDims, variantIds } from '../../../src/engine/trace/burst-memo.js';
import { FIELDS, requestFields, type RequestDescription } from '../../../src/expr/index.js';

/** The fields whose values differ between two requests. */
function differing(a: RequestDescription, b: RequestDescription): string[] {
  const fa = requestFields({ ...a, timestamp: 1 });
  const fb = requestFields({ ...b, timestamp: 1 });
  return [...FIELDS.keys()].filter((f) => !isDeepStrictEqual(fa[f], fb[f]));
}

const base: RequestDescription = { host: 'a.example', path: '/x', headers: { 'user-agent': 'ua', cookie: 'a=1', referer: 'https://r/', 'accept-language': 'en', 'x-forwarded-for': '198.51.100.1', 'x-api-key': 'k' } };

describe('fieldDims', () => {
  it('names every field each dimension changes in requestFields', () => {
    const checks: { dims: number; a: RequestDescription; b: RequestDescription }[] = [
      { dims: Dim.ip, a: { ...base, ip: '192.0.2.1' }, b: { ...base, ip: '2001:db8::1' } },
      { dims: Dim.path, a: base, b: { ...base, path: '/y/z.JSON?q=1&r=2' } },
      { dims: Dim.path, a: { ...base, path: '/y?q=1' }, b: { ...base, path: '/y?q=2' } },
      { dims: Dim.host, a: base, b: { ...base, host: 'b.example' } },
      { dims: headerDims('Host'), a: { path: '/x', headers: { Host: 'a.example' } }, b: { path: '/x', headers: { Host: 'b.example' } } },
      ...['User-Agent', 'Cookie', 'Referer', 'Accept-Language', 'X-Forwarded-For', 'X-Api-Key'].map((name) => ({
        dims: headerDims(name), a: base, b: { ...base, headers: { ...base.headers, [name.toLowerCase()]: 'other=2, fr;q=0.5' } },
      })),
    ];
    for (const { dims, a, b } of checks) {
      const changed = differing(a, b);
      expect(changed.length).toBeGreaterThan(0);
      for (const f of changed) expect({ f, dims: fieldDims(f) & dims }).not.toEqual({ f, dims: 0 });
    }
  });

  it('keeps apart fields made of one header from other headers, and geo fields from the IP', () => {
    expect(fieldDims('http.user_agent') & headerDims('x-api-key')).toBe(0);
    expect(fieldDims('http.host') & headerDims('x-api-key')).toBe(0);
    expect(fieldDims('http.request.headers') & headerDims('x-api-key')).not.toBe(0);
    expect(fieldDims('ip.src.country')).toBe(0);
  });

  it('numbers variants by the values of the dimensions asked for, equal numbers only for equal values', () => {
    const { idsOf, varied } = variantIds({ count: 4, vary: { ip: ['1', '2', '1', '1'], path: ['/a', '/a', '/b', '/a'], headers: { 'X-Api-Key': ['k', 'k', 'k', 'j'] } } }, 4);
    expect(varied).toBe(Dim.ip | Dim.path | Dim.headers);
    expect(idsOf(Dim.host)).toEqual({ ids: new Int32Array([0, 0, 0, 0]), size: 1 });
    expect(idsOf(Dim.ip)).toEqual({ ids: new Int32Array([0, 1, 0, 0]), size: 2 });
    expect(idsOf(Dim.ip | Dim.path)).toEqual({ ids: new Int32Array([0, 1, 2, 0]), size: 3 });
    expect(idsOf(Dim.ip | Dim.path | Dim.headers | Dim.host)).toEqual({ ids: new Int32Array([0, 1, 2, 3]), size: 4 });
    expect(idsOf(Dim.userAgent).size).toBe(1);
  });
});

function ruleset(rules: Record<string, unknown>[]): StoredRuleset {
  return { id: 'r', name: 'default', description: '', version: '1', last_updated: '',
    rules: rules.map((r, i) => ({ id: `id${i}`, ref: `r${i}`, version: '1', last_updated: '', description: '', enabled: true, action: 'block', ...r })) as StoredRuleset['rules'] };
}

const expressions = [
  'http.request.uri.path eq "/login"',
  'starts_with(http.request.uri.path, "/api/")',
  'http.request.uri.path matches "^/api/[0-9]+$"',
  'http.request.uri.path wildcard "/static/*"',
  'http.host in {"a.example" "c.example"}',
  'ip.src in {10.0.0.0/9} and http.request.uri.path contains "api"',
  'not ip.src in {10.0.0.0/8}',
  'any(http.request.headers["x-api-key"][*] eq "k1")',
  'http.user_agent contains "bot"',
  'http.request.full_uri contains "b.example/api"',
  'http.request.uri.query contains "page=2"',
  'http.request.method eq "POST"',
  'true',
];
const characteristics = [['ip.src'], ['http.request.headers["x-api-key"]'], ['ip.src', 'http.request.headers["x-api-key"]'], ['http.host'], ['http.request.uri.path'], ['cf.unique_visitor_id'], ['http.request.uri.args["page"]']];
const actions: [string, number][] = [['block', 60], ['block', 0], ['log', 0], ['managed_challenge', 10], ['js_challenge', 0]];

function rules(): StoredRuleset {
  return ruleset(expressions.flatMap((expression, n) => [0, 1].map((k) => {
    const [action, timeout] = actions[(n + k) % actions.length]!;
    const m = n * 2 + k;
    return {
      action, expression, enabled: m % 11 !== 10,
      ratelimit: {
        characteristics: ['cf.colo.id', ...characteristics[m % characteristics.length]!], period: 10, requests_per_period: 1 + (m % 4),
        mitigation_timeout: timeout, requests_to_origin: m % 3 === 0,
        ...(m % 5 === 0 ? { counting_expression: expressions[(n + 3) % expressions.length] } : {}),
      },
    };
  })));
}

const custom = ruleset([
  { action: 'skip', expression: 'ip.src in {10.1.0.0/16}', action_parameters: { phases: ['http_ratelimit'] } },
  { action: 'block', expression: 'http.user_agent contains "evil"' },
  { action: 'log', expression: 'http.host eq "c.example"' },
]);
const zone: ZoneTraceInput = { wafState: 'new_only', plan: 'enterprise', firewallRules: [], entrypoint: undefined, customRules: custom, previousWaf: defaultSettings() };

describe('traceBurst with the memo', () => {
  it('gives the answer of the plain path on a burst that varies everything', () => {
    const n = 240;
    const at = (j: number, list: string[]) => list[(j * 7 + Math.floor(j / list.length)) % list.length]!;
    const vary = {
      ip: Array.from({ length: n }, (_, j) => (j % 13 === 0 ? `2001:db8:${j % 3}::${j}` : `10.${j % 4}.${j % 5}.${j % 6}`)),
      path: Array.from({ length: n }, (_, j) => at(j, ['/login', '/api/1', '/api/x', '/static/a.js', '/api/2?page=2', '/', '/api/1?page=1'])),
      host: Array.from({ length: n }, (_, j) => at(j, ['a.example', 'b.example', 'c.example'])),
      headers: {
        'X-Api-Key': Array.from({ length: n }, (_, j) => at(j, ['k1', 'k2', '', 'k3'])),
        'User-Agent': Array.from({ length: n }, (_, j) => at(j, ['ua', 'somebot/1', 'evil', 'ua'])),
      },
    };
    const template: RequestDescription = { method: 'GET', headers: { accept: '*/*' } };
    const specs = [
      { count: 5000, over: 60, vary },
      { count: 3000, over: 20, vary, cached: true },
      { at: Array.from({ length: 1000 }, (_, i) => Math.floor(i / 7)), vary: { ip: vary.ip.slice(0, 10), path: vary.path.slice(0, 10) } },
      { count: 400, over: 5 },
    ];
    for (const spec of specs) {
      const memo = traceBurst(zone, rules(), template, spec);
      const plain = traceBurst(zone, rules(), template, spec, { memo: false });
      expect(memo).toEqual(plain);
      // The burst is not the easy case: rules of several kinds act, and custom rules end and skip requests.
      if (spec.vary === vary) expect([memo.rules.length > 5, memo.ended_by_custom_rules > 0, memo.skipped > 0]).toEqual([true, true, true]);
    }
  });

  it('decides what reaches rate limiting as the custom rules\' trace does: a skip of the current ruleset, a disabled rule, a later block after a skip', () => {
    const n = 60;
    const vary = {
      ip: Array.from({ length: n }, (_, j) => `10.${j % 3}.0.${j}`),
      headers: { 'User-Agent': Array.from({ length: n }, (_, j) => ['ua', 'evil', 'worse'][j % 4 % 3]!) },
    };
    const customs = [
      ruleset([
        { action: 'skip', expression: 'ip.src in {10.0.0.0/16}', action_parameters: { ruleset: 'current' } },
        { action: 'block', expression: 'http.user_agent contains "evil"' },
        { action: 'skip', expression: 'ip.src in {10.1.0.0/16}', action_parameters: { phases: ['http_ratelimit'] } },
        { action: 'block', expression: 'http.user_agent eq "worse"' },
      ]),
      ruleset([
        { action: 'skip', expression: 'true', action_parameters: { phases: ['http_request_firewall_managed'] } },
        { action: 'block', enabled: false, expression: 'true' },
        { action: 'skip', expression: 'ip.src in {10.2.0.0/16}', action_parameters: { phase: 'current', products: ['waf'] } },
        { action: 'managed_challenge', expression: 'http.user_agent eq "worse"' },
      ]),
    ];
    for (const customRules of customs) {
      const z: ZoneTraceInput = { ...zone, customRules };
      const spec = { count: 600, over: 30, vary };
      const memo = traceBurst(z, rules(), { path: '/login' }, spec);
      expect(memo).toEqual(traceBurst(z, rules(), { path: '/login' }, spec, { memo: false }));
      expect(memo.ended_by_custom_rules).toBeGreaterThan(0);
    }
  });
});
