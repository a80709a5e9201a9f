/**
 * Cases checked against their manifest: names in `matched` must resolve to the manifest's
 * firewall rule keys, deployed managed rulesets (and their catalog rules), and previous WAF
 * packages and rules; a file written for another zone is refused. Each problem is located at the
 * name in the cases file and suggests the closest real name.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/manifest/index.js';
import { checkCasesAgainstZone } from '../../src/policy/index.js';
import { casesOf, desiredOf, firewallManifest, wafManifest } from './fixtures.js';

const check = (manifest: string, cases: string) => checkCasesAgainstZone(casesOf(cases), desiredOf(manifest, 'zone.yaml')).map(formatIssue);

describe('matched names', () => {
  it('resolve, including keys with dots and ruleset- or package-wide names', () => {
    expect(check(wafManifest, `- name: ok
  expect:
    matched:
      - firewall_rules.skip-waf-for-monitoring
      - managed_rules.managed
      - managed_rules.owasp-strict.6179ae15870a4bb7b2d480d4843b323c
      - previous_waf.owasp
      - previous_waf.owasp.981176
      - previous_waf.1e334934fd7ae32ad705667f8c1057aa.100514
`)).toEqual([]);
  });

  it('a misspelt firewall rule key is located and gets a suggestion', () => {
    expect(check(firewallManifest, `- name: typo
  expect: { matched: [firewall_rules.block-admin, firewall_rules.block-admn] }
`)).toEqual(['zone.tests.yaml:2:51: [0].expect.matched: no firewall rule "block-admn" in zone.yaml; did you mean "block-admin"?']);
  });

  it('unknown managed refs, managed rule ids, packages and package rules', () => {
    expect(check(wafManifest, `- name: bad
  expect:
    matched:
      - managed_rules.owasp.6179ae15870a4bb7b2d480d4843b323c
      - managed_rules.managed.00000000000000000000000000000000
      - previous_waf.modsec
      - previous_waf.cloudflare.100599
`)).toEqual([
      'zone.tests.yaml:4:9: [0].expect.matched: no managed ruleset deployed with ref "owasp" in zone.yaml (it has: managed, owasp-strict)',
      'zone.tests.yaml:5:9: [0].expect.matched: the Cloudflare Managed Ruleset has no rule "00000000000000000000000000000000"',
      'zone.tests.yaml:6:9: [0].expect.matched: no previous WAF package "modsec" (packages: cloudflare, owasp, or a package id)',
      expect.stringMatching(/^zone\.tests\.yaml:7:9: \[0\]\.expect\.matched: the previous WAF package CloudFlare has no rule "100599"; did you mean "1005\d\d"\?$/),
    ]);
  });
});

describe('the zone of the cases file', () => {
  it('must be the manifest\'s', () => {
    expect(check(firewallManifest, `zone: other.example.com
cases: [{ name: a, expect: { allowed: true } }]
`)).toEqual(['zone.tests.yaml:1:7: zone: these cases are for zone other.example.com, but zone.yaml configures table.example.com; pass the right manifest (or --cases file)']);
    expect(check(firewallManifest, `zone: TABLE.example.com
cases: [{ name: a, expect: { allowed: true } }]
`)).toEqual([]);
  });
});
