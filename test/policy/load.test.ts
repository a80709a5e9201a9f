/**
 * Loading cases files: both shapes (a list, or a map with `cases`), defaults merged into cases, and
 * every kind of problem reported at once with its position (`file:line:col: path: message`):
 * YAML syntax, the JSON Schema (unknown properties with a suggestion, enums, types, patterns, an
 * empty expectation), and the checks the schema cannot make (URL, IP, catalog fields, duplicate
 * names).
 */
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/manifest/index.js';
import { parseCasesText, mergeRequest } from '../../src/policy/index.js';

const issuesOf = (text: string) => parseCasesText(text, 'z.tests.yaml').issues.map(formatIssue);

describe('valid files', () => {
  it('a list of cases, with matched as a string or a list', () => {
    const { cases, issues } = parseCasesText(`- name: one
  request: { path: /a }
  expect: { action: block, matched: firewall_rules.x }
- name: two
  expect:
    matched: [firewall_rules.a.b, managed_rules.m]
    allowed: true
`, 'z.tests.yaml');
    expect(issues).toEqual([]);
    expect(cases!.cases.map((c) => [c.name, c.expect])).toEqual([
      ['one', { action: 'block', matched: ['firewall_rules.x'] }],
      ['two', { allowed: true, matched: ['firewall_rules.a.b', 'managed_rules.m'] }],
    ]);
    expect(cases!.cases[0]!.location).toEqual({ file: 'z.tests.yaml', line: 1, column: 9 });
    expect(cases!.cases[1]!.matchedLocations).toEqual([{ file: 'z.tests.yaml', line: 6, column: 15 }, { file: 'z.tests.yaml', line: 6, column: 35 }]);
  });

  it('a map with zone, defaults and cases; defaults are merged into each case', () => {
    const { cases, issues } = parseCasesText(`zone: example.com
defaults:
  request:
    host: www.example.com
    ip: 203.0.113.1
    headers: { User-Agent: ua-default, X-Trace: "1" }
    fields: { cf.threat_score: 10 }
cases:
  - name: inherits
    expect: { allowed: true }
  - name: overrides
    request:
      ip: 192.0.2.1
      headers: { user-agent: mine }
      fields: { cf.client.bot: true }
    expect: { allowed: true }
  - name: a url replaces the default host
    request: { url: "http://api.example.com/v1?x=1" }
    expect: { allowed: true }
`, 'z.tests.yaml');
    expect(issues).toEqual([]);
    expect(cases!.zone).toBe('example.com');
    const [inherits, overrides, url] = cases!.cases.map((c) => c.request);
    expect(inherits).toEqual({ host: 'www.example.com', ip: '203.0.113.1', headers: { 'User-Agent': 'ua-default', 'X-Trace': '1' }, fields: { 'cf.threat_score': 10 } });
    expect(overrides).toEqual({ host: 'www.example.com', ip: '192.0.2.1', headers: { 'X-Trace': '1', 'user-agent': 'mine' }, fields: { 'cf.threat_score': 10, 'cf.client.bot': true } });
    expect(url).toEqual({ url: 'http://api.example.com/v1?x=1', ip: '203.0.113.1', headers: { 'User-Agent': 'ua-default', 'X-Trace': '1' }, fields: { 'cf.threat_score': 10 } });
  });

  it('mergeRequest: a case with host/path drops the defaults\' url', () => {
    expect(mergeRequest({ url: 'https://a.example/x' }, { path: '/y' })).toEqual({ path: '/y' });
  });
});

describe('problems, all at once and located', () => {
  it('schema: unknown property with a suggestion, bad enum, wrong type, bad pattern, empty expect, missing name', () => {
    expect(issuesOf(`cases:
  - name: a
    request: { pth: /x }
    expect: { action: blok }
  - name: b
    request: { path: admin, headers: { X-A: 1 } }
    expect: {}
  - expect: { allowed: yes }
`)).toEqual([
      'z.tests.yaml:3:16: cases[0].request.pth: unknown property "pth"; did you mean "path"? (allowed: method, scheme, host, path, query, url, headers, ip, country, body, fields)',
      'z.tests.yaml:4:23: cases[0].expect.action: must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass, skip (got "blok"; did you mean "block"?)',
      'z.tests.yaml:6:22: cases[1].request.path: must start with `/` (e.g. `/admin`) (got "admin")',
      'z.tests.yaml:6:45: cases[1].request.headers.X-A: must be a string or a list, got number 1',
      'z.tests.yaml:7:5: cases[1].expect: must say what is expected: give at least one of action, matched, allowed',
      'z.tests.yaml:8:5: cases[2]: missing required property "name"',
      'z.tests.yaml:8:24: cases[2].expect.allowed: must be true or false, got the string "yes"',
    ]);
  });

  it('requests: url and host together, a bad url, a bad ip, unknown and mistyped fields', () => {
    expect(issuesOf(`- name: a
  request: { url: "https://x.example/", host: y.example }
  expect: { allowed: true }
- name: b
  request: { url: "not a url", ip: 300.1.1.1 }
  expect: { allowed: true }
- name: c
  request:
    fields: { cf.threat_scor: 1, ip.src.asnum: many, cf.client.bot: true }
  expect: { allowed: true }
`)).toEqual([
      'z.tests.yaml:2:19: [0].request.url: give either url or scheme/host/path/query, not both (this request also has host)',
      'z.tests.yaml:5:19: [1].request.url: must be an absolute http(s) URL such as "https://example.com/login?x=1" (got "not a url")',
      'z.tests.yaml:5:36: [1].request.ip: must be an IPv4 or IPv6 address (got "300.1.1.1")',
      'z.tests.yaml:9:15: [2].request.fields["cf.threat_scor"]: unknown field "cf.threat_scor"; did you mean "cf.threat_score"?: fields takes names of the Rules language\'s field catalog (e.g. "cf.threat_score")',
      'z.tests.yaml:9:48: [2].request.fields["ip.src.asnum"]: expected an integer, got "many"',
    ]);
  });

  it('duplicate names point at the second and name the first line', () => {
    expect(issuesOf(`- { name: same, expect: { allowed: true } }
- { name: same, expect: { allowed: true } }
`)).toEqual(['z.tests.yaml:2:11: [1].name: duplicate case name "same": already used at line 1; names must be unique']);
  });

  it('YAML syntax errors and duplicate keys are located; an empty file says what to write', () => {
    expect(issuesOf('cases:\n  - name: [unclosed\n')[0]).toMatch(/^z\.tests\.yaml:\d+:\d+: /);
    expect(issuesOf('cases: []\ncases: []\n')[0]).toMatch(/^z\.tests\.yaml:2:1: Map keys must be unique/);
    expect(issuesOf('')).toEqual(['z.tests.yaml:1:1: the file has no cases: write a list of cases, or a map with `cases:`']);
    expect(issuesOf('just text')).toEqual(['z.tests.yaml:1:1: must be a map or a list, got the string "just text"']);
  });
});
