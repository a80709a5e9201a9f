/**
 * `rate_limiting_rules` in the manifest: normalisation (key order, defaults, `cf.colo.id` added),
 * the checks the schema cannot state, and every limit of the per-plan table as a positioned issue
 * when the plan is known.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, validateManifestText } from '../../src/manifest/index.js';
import { doc } from './helpers/issues.js';

const issues = (text: string, tier?: 'free' | 'pro' | 'business' | 'enterprise') =>
  validateManifestText(text, 'zone.yaml', tier !== undefined ? { tier } : {}).issues.map(formatIssue);

/** One rule whose lines after `ratelimit:` are `rl` (each at 6 spaces); `head` are the rule's other lines. */
const one = (head: string[], rl: string[]) => doc('zone: x', 'rate_limiting_rules:', '  r:', ...head.map((l) => `    ${l}`), '    ratelimit:', ...rl.map((l) => `      ${l}`));
const base = ['characteristics: [ip.src]', 'period: 10', 'requests_per_period: 5', 'mitigation_timeout: 10'];

describe('rate_limiting_rules in the manifest', () => {
  it('refuses a counting expression that uses both response fields and a list, at the counting expression (the service refuses it)', () => {
    const text = one(['action: block', 'expression: http.request.uri.path eq "/login"'], [...base, 'counting_expression: http.response.code eq 401 and ip.src in $office_ips']);
    expect(issues(text)).toEqual([
      'zone.yaml:11:28: rate_limiting_rules.r.ratelimit.counting_expression: a counting expression cannot use both response fields (http.response.*, counted on the response) and lists; count on one or the other',
    ]);
    expect(issues(one(['action: block', 'expression: http.request.uri.path eq "/login"'], [...base, 'counting_expression: http.response.code eq 401']))).toEqual([]);
  });

  it('holds the list restrictions to custom lists: a managed list ($cf.*) goes with requests_to_origin and response fields', () => {
    const managed = one(['action: block', 'expression: ip.src in $cf.open_proxies'], [...base, 'requests_to_origin: true', 'counting_expression: http.response.code eq 401 and ip.src in $cf.anonymizer']);
    expect(issues(managed)).toEqual([]);
    // A custom list in the counting expression needs cached requests counted, as one in the rule's expression does.
    const custom = one(['action: block', 'expression: http.request.uri.path eq "/login"'], [...base, 'requests_to_origin: true', 'counting_expression: ip.src in $office']);
    expect(issues(custom)).toEqual([
      'zone.yaml:11:27: rate_limiting_rules.r.ratelimit.requests_to_origin: a rule whose expression or counting expression uses a custom list must count cached requests too: requests_to_origin must be false',
    ]);
  });

  it('normalises rules in key order with the service defaults and cf.colo.id first', () => {
    const r = validateManifestText(doc(
      'zone: x',
      'rate_limiting_rules:',
      '  login:',
      '    action: block',
      '    expression: http.request.uri.path   eq "/login"',
      '    action_parameters: {response: {content_type: text/plain, content: slow down}}',
      '    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 5, mitigation_timeout: 600}',
      '  api:',
      '    action: managed_challenge',
      '    expression: starts_with(http.request.uri.path, "/api/")',
      '    ratelimit:',
      '      characteristics: [\'http.request.headers["x-api-key"]\']',
      '      period: 60',
      '      requests_per_period: 100',
      '      counting_expression: http.response.code   in {200 201}',
    ), 'zone.yaml');
    expect(r.issues).toEqual([]);
    const [login, api] = r.zone!.rateLimitingRules!;
    expect(login).toMatchObject({ ref: 'login', action: 'block', expression: 'http.request.uri.path eq "/login"', enabled: true, description: '',
      actionParameters: { response: { status_code: 429, content_type: 'text/plain', content: 'slow down' } },
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600, requests_to_origin: false } });
    expect(api!.ratelimit).toEqual({ characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'], period: 60, requests_per_period: 100, mitigation_timeout: 0,
      requests_to_origin: false, counting_expression: 'http.response.code in {200 201}' });
    expect(validateManifestText(doc('zone: x'), 'zone.yaml').zone!.rateLimitingRules).toBeUndefined();
    expect(validateManifestText(doc('zone: x', 'rate_limiting_rules: {}'), 'zone.yaml').zone!.rateLimitingRules).toEqual([]);
  });

  it.each([
    ['cf.colo.id written', ['characteristics: [cf.colo.id, ip.src]', 'period: 10', 'requests_per_period: 5'], /ratelimit\.characteristics\[0\]: zonewall adds cf\.colo\.id/],
    ['ip.src with cf.unique_visitor_id', ['characteristics: [ip.src, cf.unique_visitor_id]', 'period: 10', 'requests_per_period: 5'], /cannot be used together/],
    ['an upper-case header', ['characteristics: [\'http.request.headers["X-Key"]\']', 'period: 10', 'requests_per_period: 5'], /lower case/],
    ['an unknown characteristic', ['characteristics: [http.cookie]', 'period: 10', 'requests_per_period: 5'], /is not a characteristic/],
    ['no threshold', ['characteristics: [ip.src]', 'period: 10'], /exactly one of requests_per_period/],
    ['a score without header', ['characteristics: [ip.src]', 'period: 10', 'score_per_period: 5'], /needs score_response_header_name/],
    ['a period not in the list', ['characteristics: [ip.src]', 'period: 7', 'requests_per_period: 5'], /ratelimit\.period/],
    ['a bad counting expression', ['characteristics: [ip.src]', 'period: 10', 'requests_per_period: 5', 'counting_expression: http.response.code eq'], /counting_expression/],
  ])('refuses %s with a position', (_n, rl, message) => {
    const out = issues(one(['action: block', 'expression: http.request.uri.path eq "/login"'], rl));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^zone\.yaml:\d+:\d+: rate_limiting_rules\.r/);
    expect(out[0]).toMatch(message);
  });

  it('refuses a response on a challenge and a list with requests_to_origin', () => {
    expect(issues(one(['action: managed_challenge', 'expression: "true"', 'action_parameters: {response: {content_type: text/plain, content: x}}'], base))[0]).toMatch(/zone\.yaml:6:5: rate_limiting_rules\.r\.action_parameters: .*block rules only/);
    expect(issues(one(['action: block', 'expression: ip.src in $office'], [...base, 'requests_to_origin: true']))[0]).toMatch(/zone\.yaml:11:27: rate_limiting_rules\.r\.ratelimit\.requests_to_origin: .*must be false/);
  });

  // Each row: the plan, the rule going one step past it, the issue's path and line:column.
  it.each([
    ['free', ['action: block', 'expression: http.host eq "a"'], base, '5:17: rate_limiting_rules.r.expression: the field http.host'],
    ['pro', ['action: block', 'expression: http.request.method eq "POST"'], base, '5:17: rate_limiting_rules.r.expression: the field http.request.method'],
    ['business', ['action: block', 'expression: any(http.request.headers["x"][*] eq "1")'], base, '5:17: rate_limiting_rules.r.expression: the field http.request.headers in a rate limiting expression needs the enterprise plan'],
    ['pro', ['action: block', 'expression: "true"'], ['characteristics: [cf.unique_visitor_id]', 'period: 10', 'requests_per_period: 5', 'mitigation_timeout: 10'], '7:25: rate_limiting_rules.r.ratelimit.characteristics[0]: the characteristic cf.unique_visitor_id needs the business plan'],
    ['business', ['action: block', 'expression: "true"'], ['characteristics: [ip.src.asnum]', 'period: 10', 'requests_per_period: 5', 'mitigation_timeout: 10'], '7:25: rate_limiting_rules.r.ratelimit.characteristics[0]: the characteristic ip.src.asnum needs the enterprise plan'],
    ['pro', ['action: block', 'expression: "true"'], [...base, 'counting_expression: http.response.code eq 401'], '11:28: rate_limiting_rules.r.ratelimit.counting_expression: a counting expression needs the business plan'],
    ['free', ['action: block', 'expression: "true"'], ['characteristics: [ip.src]', 'period: 60', 'requests_per_period: 5', 'mitigation_timeout: 10'], '8:15: rate_limiting_rules.r.ratelimit.period: a period of 60 s'],
    ['business', ['action: block', 'expression: "true"'], ['characteristics: [ip.src]', 'period: 3600', 'requests_per_period: 5', 'mitigation_timeout: 10'], '8:15: rate_limiting_rules.r.ratelimit.period: a period of 3600 s'],
    ['pro', ['action: block', 'expression: "true"'], ['characteristics: [ip.src]', 'period: 10', 'requests_per_period: 5', 'mitigation_timeout: 86400'], '10:27: rate_limiting_rules.r.ratelimit.mitigation_timeout: a mitigation_timeout of 86400 s'],
    ['business', ['action: js_challenge', 'expression: "true"'], base, '10:27: rate_limiting_rules.r.ratelimit.mitigation_timeout: below Enterprise a js_challenge rule needs mitigation_timeout: 0'],
    ['business', ['action: block', 'expression: "true"'], ['characteristics: [ip.src]', 'period: 10', 'requests_per_period: 5'], 'rate_limiting_rules.r.ratelimit.mitigation_timeout: below Enterprise a block needs a mitigation_timeout above 0'],
    ['business', ['action: block', 'expression: "true"'], ['characteristics: [ip.src]', 'period: 10', 'score_per_period: 5', 'score_response_header_name: x-score', 'mitigation_timeout: 10'], '9:25: rate_limiting_rules.r.ratelimit.score_per_period: complexity-based'],
    ['business', ['action: log', 'expression: "true"'], base, '4:13: rate_limiting_rules.r.action: the log action needs the enterprise plan'],
  ] as const)('on %s reports %j %j', (tier, head, rl, expected) => {
    const out = issues(one([...head], [...rl]), tier);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(expected);
    expect(issues(one([...head], [...rl]), 'enterprise')).toEqual([]);
  });

  it('reports the rule past the plan\'s quota', () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => [`  r${i}:`, '    action: block', '    expression: http.request.uri.path eq "/"', '    ratelimit: {characteristics: [ip.src], period: 10, requests_per_period: 5, mitigation_timeout: 10}']).flat();
    expect(issues(doc('zone: x', 'rate_limiting_rules:', ...rules(2)), 'free')).toEqual([
      'zone.yaml:7:3: rate_limiting_rules.r1: the free plan allows 1 rate limiting rules and this is rule 2 of 2 (disabled rules count too): remove 1, or use a higher plan',
    ]);
    expect(issues(doc('zone: x', 'rate_limiting_rules:', ...rules(5)), 'business')).toEqual([]);
    expect(issues(doc('zone: x', 'rate_limiting_rules:', ...rules(6)), 'business')).toHaveLength(1);
  });
});
