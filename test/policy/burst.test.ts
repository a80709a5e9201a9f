/**
 * Burst cases of `zonewall test` offline: the cases file's `burst` and `expect.first`/`acted`, what
 * the schema cannot say (vary lists of one length, `at` or `count`), rule names checked against the
 * manifest, and judging (a passing case, and a failing one saying what happened instead).
 */
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/manifest/index.js';
import { buildZoneModel, checkCasesAgainstZone, parseCasesText, runOffline } from '../../src/policy/index.js';
import { casesOf, desiredOf } from './fixtures.js';

const manifest = `zone: rl.example.com
plan: enterprise
rate_limiting_rules:
  login:
    action: managed_challenge
    expression: http.request.uri.path eq "/login"
    ratelimit: {characteristics: [ip.src], period: 10, requests_per_period: 3}
`;

describe('burst cases offline', () => {
  it('judges the first action, the number of requests acted on, and a rule name', () => {
    const cases = casesOf(`cases:
  - name: throttled
    request: { path: /login }
    burst: { count: 6, over: 10 }
    expect: { first: { request: 4, action: managed_challenge, rule: rate_limiting_rules.login, until: null }, acted: 3, matched: rate_limiting_rules.login }
  - name: wrong
    request: { path: /login }
    burst: { at: [0, 0.5, 1, 1.5] }
    expect: { allowed: true }
`);
    const desired = desiredOf(manifest);
    expect(checkCasesAgainstZone(cases, desired)).toEqual([]);
    const [ok, wrong] = runOffline(buildZoneModel(desired), cases.cases);
    expect([ok!.pass, ok!.failures]).toEqual([true, []]);
    expect(wrong!.pass).toBe(false);
    expect(wrong!.failures).toEqual(['expected every request to pass, got request 4 (at 1.5 s) got managed_challenge by rate_limiting_rules.login, throttled (only the requests over the rate); 1 of 4 requests got an action']);
  });

  it('refuses vary lists of different lengths, at with count, and an unknown rule name, each located', () => {
    const bad = parseCasesText(`cases:
  - name: a
    burst: { count: 3, at: [0, 1], vary: { ip: [192.0.2.1, 192.0.2.2], path: [/a] } }
    expect: { acted: 0 }
`, 'rl.tests.yaml');
    expect(bad.issues.map(formatIssue)).toEqual([
      'rl.tests.yaml:3:24: cases[0].burst.at: give either at (the times) or count and over, not both',
      'rl.tests.yaml:3:36: cases[0].burst.vary: every vary list needs the same length (one value per distinct request); got lengths 2, 1',
    ]);
    const unknown = casesOf('cases:\n  - name: b\n    burst: { count: 2 }\n    expect: { matched: rate_limiting_rules.logn }\n');
    expect(checkCasesAgainstZone(unknown, desiredOf(manifest)).map((i) => i.message)).toEqual(['no rate limiting rule "logn" in zone.yaml; did you mean "login"?']);
  });

  it('reads vary values given one per line (a block scalar) as the same lists, and counts their lines in the length check', () => {
    const asLists = casesOf(`cases:
  - name: lists
    request: { path: /login }
    burst: { count: 8, over: 4, vary: { ip: [192.0.2.1, 192.0.2.2], headers: { x-k: [a, b] } } }
    expect: { acted: 2 }
`);
    const perLine = casesOf(`cases:
  - name: lines
    request: { path: /login }
    burst:
      count: 8
      over: 4
      vary:
        ip: |
          192.0.2.1
          192.0.2.2
        headers:
          x-k: "a\\r\\nb"
    expect: { acted: 2 }
`);
    expect(perLine.cases[0]!.burst!.vary).toEqual({ ip: ['192.0.2.1', '192.0.2.2'], headers: { 'x-k': ['a', 'b'] } });
    const model = buildZoneModel(desiredOf(manifest));
    const [a] = runOffline(model, asLists.cases);
    const [b] = runOffline(model, perLine.cases);
    expect([b!.pass, b!.why]).toEqual([true, a!.why]);
    // Three IPs one a line, then `more` (further vary lists), in one case.
    const threeIps = (more: string) => parseCasesText(`cases:
  - name: c
    burst:
      count: 3
      vary:
        ip: |
          192.0.2.1
          192.0.2.2
          192.0.2.3
${more}    expect: { acted: 0 }
`, 'rl.tests.yaml');
    const bad = threeIps('        path: [/a, /b]\n        host: 7\n');
    expect(bad.issues.map(formatIssue)).toEqual([
      'rl.tests.yaml:11:15: cases[0].burst.vary.host: must be a list or a string, got number 7',
    ]);
    const lengths = threeIps('        path: [/a, /b]\n');
    expect(lengths.issues.map(formatIssue)).toEqual([
      'rl.tests.yaml:5:7: cases[0].burst.vary: every vary list needs the same length (one value per distinct request); got lengths 3, 2',
    ]);
  });

  it('resolves $name in a rate limiting rule to the account manifest\'s lists (a burst passed none: the rule never matched)', () => {
    const desired = desiredOf(`zone: rl.example.com
plan: enterprise
rate_limiting_rules:
  listed:
    action: block
    expression: ip.src in $crawlers
    ratelimit: {characteristics: [ip.src], period: 10, requests_per_period: 2, mitigation_timeout: 60}
`);
    const cases = casesOf(`cases:
  - name: a listed crawler
    request: { path: /, ip: 203.0.113.9 }
    burst: { count: 3, over: 3 }
    expect: { first: { request: 3, action: block, rule: rate_limiting_rules.listed, until: 62 } }
  - name: not listed
    request: { path: /, ip: 198.51.100.9 }
    burst: { count: 3, over: 3 }
    expect: { acted: 0 }
`);
    const [listed, other] = runOffline(buildZoneModel(desired, { crawlers: ['203.0.113.0/24'] }), cases.cases);
    expect([listed!.pass, listed!.why]).toEqual([true, 'request 3 (at 2 s) got block by rate_limiting_rules.listed, until 62 s; 1 of 3 requests got an action']);
    expect(other!.pass).toBe(true);
  });

  it('counts requests a firewall allow rule let through (allow ends only the firewall and custom rules), as the single-request trace runs rate limiting after it', () => {
    const desired = desiredOf(`zone: rl.example.com
plan: enterprise
waf_migration: pending
managed_rules: []
firewall_rules:
  office:
    action: allow
    filter: {expression: 'ip.src in {192.0.2.0/24}'}
rate_limiting_rules:
  login:
    action: block
    expression: http.request.uri.path eq "/login"
    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 5, mitigation_timeout: 600}
`);
    const cases = casesOf(`cases:
  - name: the office is allowed past the firewall rules, and still counted
    request: { path: /login, ip: 192.0.2.7 }
    burst: { count: 6, over: 60 }
    expect: { first: { request: 6, action: block, rule: rate_limiting_rules.login, until: 650 } }
`);
    const [r] = runOffline(buildZoneModel(desired), cases.cases);
    expect([r!.pass, r!.failures]).toEqual([true, []]);
  });
});

