import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPolicyTests } from '../../src/policy/index.js';

function dir(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), 'zw-policy-lists-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return d;
}

const zone = [
  'zone: lists.example.com', 'filters:', '  office: { expression: "ip.src in $office" }',
  'firewall_rules:', '  block-office: { filter: office, action: block }', '',
].join('\n');
const cases = [
  'cases:',
  '  - { name: in the list, request: { fields: { ip.src: 192.0.2.9 } }, expect: { action: block } }',
  '  - { name: not in it, request: { fields: { ip.src: 203.0.113.9 } }, expect: { allowed: true } }', '',
].join('\n');

describe('zonewall test resolves $name from the account manifest offline', () => {
  it('uses the account manifest of the directory, and beside a manifest named alone', async () => {
    const d = dir({ 'account.yaml': 'account: acme\nlists:\n  office: { kind: ip, items: [192.0.2.0/24] }\n', 'z.yaml': zone, 'z.tests.yaml': cases });
    for (const paths of [[d], [join(d, 'z.yaml')]]) {
      const r = await runPolicyTests(paths);
      expect(r.errors).toEqual([]);
      expect(r.reports.map((x) => [x.passed, x.failed])).toEqual([[2, 0]]);
    }
  });

  it('a case against a list that does not exist is an error, never an empty match', async () => {
    const d = dir({ 'account.yaml': 'account: acme\nlists:\n  offices: { kind: ip, items: [192.0.2.0/24] }\n', 'z.yaml': zone, 'z.tests.yaml': cases });
    const r = await runPolicyTests([d]);
    expect(r.reports).toEqual([]);
    expect(r.errors.map((e) => `${e.line}:${e.column}: ${e.message}`)).toEqual([expect.stringMatching(/^3:36: unknown list \$office: .*did you mean \$offices\?$/)]);
    const none = await runPolicyTests([dir({ 'z.yaml': zone, 'z.tests.yaml': cases })]);
    expect(none.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^unknown list \$office: no account manifest/)]);
  });

  it('managed lists hold the engine\'s documented sample members offline too, with a note (offline agreed with no engine)', async () => {
    const managed = [
      'zone: managed-lists.example.com', 'plan: enterprise', 'custom_rules:',
      '  proxies: { expression: "ip.src in $cf.open_proxies or ip.src in $cf.botnetcc", action: block }', '',
    ].join('\n');
    const managedCases = [
      'cases:',
      '  - { name: a sample open proxy, request: { ip: 192.0.2.66 }, expect: { action: block } }',
      '  - { name: in a sample CIDR, request: { ip: 198.51.100.3 }, expect: { action: block } }',
      '  - { name: a sample botnet v6 network, request: { ip: "2001:db8:bad::1" }, expect: { action: block } }',
      '  - { name: another address, request: { ip: 203.0.113.9 }, expect: { allowed: true } }', '',
    ].join('\n');
    const r = await runPolicyTests([dir({ 'z.yaml': managed, 'z.tests.yaml': managedCases })]);
    expect(r.errors).toEqual([]);
    expect(r.reports.map((x) => x.results.map((c) => [c.name, c.pass, c.actual.action]))).toEqual([[
      ['a sample open proxy', true, 'block'], ['in a sample CIDR', true, 'block'], ['a sample botnet v6 network', true, 'block'], ['another address', true, null],
    ]]);
    expect(r.reports[0]!.notes).toEqual([expect.stringMatching(/^\$cf\.open_proxies, \$cf\.botnetcc: managed lists, whose members only the service knows, hold the engine's documented sample here \(.*192\.0\.2\.66.*\)/)]);
  });

  it('a zone without managed lists gets no such note', async () => {
    const d = dir({ 'account.yaml': 'account: acme\nlists:\n  office: { kind: ip, items: [192.0.2.0/24] }\n', 'z.yaml': zone, 'z.tests.yaml': cases });
    const r = await runPolicyTests([d]);
    expect(r.reports[0]!.notes).toBeUndefined();
  });
});
