import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeListItem } from '../../src/api/index.js';
import { formatIssue, loadManifests, validateAccountManifestText } from '../../src/manifest/index.js';

function messages(text: string, plan?: 'free' | 'pro' | 'business' | 'enterprise'): string[] {
  return validateAccountManifestText(text, 'account.yaml', plan === undefined ? {} : { tier: plan }).issues.map(formatIssue);
}

function dir(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), 'zw-lists-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return d;
}

describe('list items: one normal form for the engine and the client', () => {
  it.each([
    ['ip', '192.0.2.1', '192.0.2.1'],
    ['ip', '192.0.2.1/32', '192.0.2.1'],
    ['ip', '10.0.0.0/8', '10.0.0.0/8'],
    ['ip', '2001:DB8::1', '2001:db8::/64'],
    ['ip', '2001:0db8:0000:0000:0000:0000:0000:0000/32', '2001:db8::/32'],
    ['ip', '2001:db8:0:0:0:0:0:0/48', '2001:db8::/48'],
    ['ip', '::ffff:192.0.2.1', '::/64'],
    ['hostname', 'App.Example.COM.', 'app.example.com'],
    ['hostname', '*.example.com', '*.example.com'],
    ['asn', 'AS13335', 13335],
    ['asn', 13335, 13335],
  ] as const)('%s %s is %s', (kind, raw, value) => {
    const out = normalizeListItem(kind, raw);
    expect(out).toEqual({ ok: true, value });
  });

  it('writes IPv6 in its shortest form (RFC 5952)', () => {
    expect(normalizeListItem('ip', '2001:db8:0:0:1:0:0:0/64')).toEqual({ ok: false, reason: expect.stringContaining('host bits') });
    expect(normalizeListItem('ip', '2001:db8:0:1::/64')).toEqual({ ok: true, value: '2001:db8:0:1::/64' });
    expect(normalizeListItem('ip', '2001:db8::/64')).toEqual({ ok: true, value: '2001:db8::/64' });
  });

  it.each([
    ['ip', '10.0.0.0/7', '/8 to /32'],
    ['ip', '10.0.0.1/24', 'the network of 10.0.0.1/24 is 10.0.0.0/24'],
    ['ip', '2001:db8::/96', '/4 to /64'],
    ['ip', '256.1.1.1', 'must be an IPv4 address'],
    ['ip', 'example.com', 'must be an IPv4 address'],
    ['hostname', 'a.*.example.com', 'fully qualified'],
    ['hostname', '192.0.2.1', 'not an IP address'],
    ['hostname', 'localhost', 'fully qualified'],
    ['asn', 4294967296, 'AS number'],
    ['asn', 'x', 'AS number'],
  ] as const)('%s %s is refused: %s', (kind, raw, reason) => {
    const out = normalizeListItem(kind, raw);
    expect(out.ok).toBe(false);
    expect(out.ok ? '' : out.reason).toContain(reason);
  });
});

describe('the account manifest', () => {
  it('normalises items and keeps comments', () => {
    const r = validateAccountManifestText('account: acme\nlists:\n  office:\n    kind: ip\n    items:\n      - 2001:DB8::5\n      - { value: 192.0.2.0/24, comment: HQ }\n', 'a.yaml');
    expect(r.issues).toEqual([]);
    expect(r.account?.lists).toEqual([expect.objectContaining({ name: 'office', kind: 'ip', description: '', items: [{ value: '2001:db8::/64' }, { value: '192.0.2.0/24', comment: 'HQ' }] })]);
  });

  it('places a bad item, a duplicate after normalisation and schema errors at file:line:column', () => {
    const text = [
      'account: acme', 'lists:', '  office:', '    kind: ip', '    items:',
      '      - 10.0.0.1/24', '      - 2001:db8::1', '      - 2001:DB8::2', '  Bad-Name:', '    kind: ip',
      '  hosts:', '    kind: hostnames', '    itemz: []', '',
    ].join('\n');
    expect(messages(text)).toEqual([
      'account.yaml:6:9: lists.office.items[0]: "10.0.0.1/24": host bits are set: the network of 10.0.0.1/24 is 10.0.0.0/24',
      'account.yaml:8:9: lists.office.items[2]: duplicate item: the same as item 1 at line 7 ("2001:DB8::2" is "2001:db8::/64")',
      'account.yaml:9:3: lists.Bad-Name: a list name is 1 to 50 lower-case letters, digits and _ (got "Bad-Name")',
      'account.yaml:12:11: lists.hosts.kind: must be one of ip, hostname, asn (got "hostnames"; did you mean "hostname"?)',
      expect.stringMatching(/^account\.yaml:13:5: lists\.hosts\.itemz: unknown field \(did you mean "items"\?\)/),
    ]);
  });

  it('checks the quotas of the plan', () => {
    const text = 'account: acme\nlists:\n  a: { kind: ip, items: [192.0.2.1] }\n  b: { kind: hostname, items: [x.example.com] }\n';
    expect(messages(text, 'free')).toEqual([
      'account.yaml:2:1: lists: 2 lists, but the free plan allows 1 custom list per account',
      'account.yaml:4:14: lists.b.kind: hostname lists need the enterprise plan (the account is on free)',
    ]);
    const many = `account: acme\nplan: pro\nlists:\n  a:\n    kind: ip\n    items:\n${Array.from({ length: 10_001 }, (_, i) => `      - 10.${i >> 8}.${i & 255}.1\n`).join('')}`;
    expect(messages(many)).toEqual(['account.yaml:3:1: lists: 10001 items across the account\'s lists, but the pro plan allows 10000']);
  });

  it('a plan that is not one (a typo, a number, a map) is a schema error at its place, not an internal error', () => {
    for (const plan of ['enterprise}', '3', '{ a: 1 }', 'constructor', 'toString']) {
      const out = messages(`account: acme\nplan: ${plan}\nlists:\n  a: { kind: hostname, items: [x.example.com] }\n`);
      expect(out.length).toBeGreaterThan(0);
      expect(out.filter((m) => !/^account.yaml:2:[17]: plan: must be /.test(m))).toEqual([]);
    }
  });
});

describe('$name in zone manifests against the visible lists', () => {
  const account = 'account: acme\nlists:\n  office_ips: { kind: ip, items: [192.0.2.0/24] }\n  hosts: { kind: hostname, items: [a.example.com] }\n';

  it('accepts known lists of the right kind, and the managed lists on enterprise', async () => {
    const d = dir({
      'account.yaml': account,
      'z.yaml': 'zone: z.example.com\ncustom_rules:\n  a: { action: block, expression: "ip.src in $office_ips or http.host in $hosts or ip.src in $cf.open_proxies" }\n',
    });
    const r = await loadManifests([d]);
    expect(r.errors).toEqual([]);
    expect(r.account?.account).toBe('acme');
    expect(r.zones[0]!.listReferences?.map((x) => [x.use.name, x.rule])).toEqual([['office_ips', 'custom_rules.a'], ['hosts', 'custom_rules.a'], ['cf.open_proxies', 'custom_rules.a']]);
  });

  it('an unknown list is a positioned error with a suggestion; a list of the wrong kind too', async () => {
    const d = dir({
      'account.yaml': account,
      'z.yaml': 'zone: z.example.com\nfilters:\n  f: { expression: "ip.src in $office_ip" }\ncustom_rules:\n  a: { action: block, expression: "ip.src in $hosts" }\n',
    });
    const r = await loadManifests([d]);
    expect(r.errors.map(formatIssue)).toEqual([
      `${d}/z.yaml:3:31: filters.f.expression: unknown list $office_ip: the account manifest ${d}/account.yaml has no list of that name; did you mean $office_ips?`,
      `${d}/z.yaml:5:46: custom_rules.a.expression: $hosts is a hostname list, but ip.src is an IP field: a hostname list goes with http.host`,
    ]);
  });

  it('a rate limiting rule\'s counting expression names lists as its expression does: an unknown one is a positioned error', async () => {
    const d = dir({
      'account.yaml': account,
      'z.yaml': 'zone: z.example.com\nrate_limiting_rules:\n  r:\n    action: block\n    expression: http.request.uri.path eq "/login"\n    ratelimit:\n      characteristics: [ip.src]\n      period: 10\n      requests_per_period: 5\n      mitigation_timeout: 10\n      counting_expression: ip.src in $office_ip\n',
    });
    const r = await loadManifests([d]);
    expect(r.errors.map(formatIssue)).toEqual([
      `${d}/z.yaml:11:38: rate_limiting_rules.r.ratelimit.counting_expression: unknown list $office_ip: the account manifest ${d}/account.yaml has no list of that name; did you mean $office_ips?`,
    ]);
  });

  it('without an account manifest every $name is unknown (never an empty match)', async () => {
    const d = dir({ 'z.yaml': 'zone: z.example.com\ncustom_rules:\n  a: { action: block, expression: "ip.src in $office_ips" }\n' });
    const r = await loadManifests([d]);
    expect(r.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^unknown list \$office_ips: no account manifest/)]);
    // A provider's live lists stand in for the account manifest.
    const live = await loadManifests([d], { lists: { kinds: new Map([['office_ips', 'ip']]), source: 'the live account' } });
    expect(live.errors).toEqual([]);
  });

  it('a second account manifest in one run is an error', async () => {
    const d = dir({ 'a.yaml': account, 'b.yaml': account });
    const r = await loadManifests([d]);
    expect(r.errors.map((e) => `${e.line}:${e.path}: ${e.message}`)).toEqual([`1:account: ${d}/a.yaml is already this run's account manifest; one account manifest per run`]);
  });
});
