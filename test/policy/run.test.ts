/**
 * Running policy tests from files: where cases files are found (beside the manifest, then in
 * `tests/`, or `--cases`), directories of manifests (cases files are never taken for manifests;
 * manifests without cases are skipped, unless named on their own), problems collected with their
 * positions, and the text and JSON views of the results.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/manifest/index.js';
import { defaultCasesFiles, renderRunText, runJson, runPassed, runPolicyTests } from '../../src/policy/index.js';
import { firewallManifest } from './fixtures.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zw-policy-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

const write = (name: string, text: string) => {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
};
const passing = `- name: admin from outside is blocked
  request: { path: /admin, ip: 203.0.113.5 }
  expect: { action: block, matched: firewall_rules.block-admin }
`;
const failing = `- name: admin from outside is allowed
  request: { path: /admin, ip: 203.0.113.5 }
  expect: { allowed: true }
`;

describe('finding cases', () => {
  it('looks beside the manifest, then in tests/', () => {
    expect(defaultCasesFiles('zones/a.example.yaml')).toEqual([
      'zones/a.example.tests.yaml', 'zones/a.example.tests.yml', 'zones/tests/a.example.tests.yaml', 'zones/tests/a.example.tests.yml',
    ]);
  });

  it('runs a manifest with its cases beside it, and --cases overrides', async () => {
    const manifest = write('table.yaml', firewallManifest);
    write('table.tests.yaml', passing);
    const other = write('elsewhere/failing.yaml', failing);
    const run = await runPolicyTests([manifest]);
    expect(run.errors).toEqual([]);
    expect(run.reports.map((r) => [r.cases_file, r.passed, r.failed])).toEqual([[join(dir, 'table.tests.yaml'), 1, 0]]);
    expect(runPassed(run)).toBe(true);
    const overridden = await runPolicyTests([manifest], { cases: other });
    expect(overridden.reports[0]!.failed).toBe(1);
    expect(runPassed(overridden)).toBe(false);
  });

  it('a directory: cases in tests/ are found, cases files are not manifests, manifests without cases are skipped', async () => {
    write('zones/table.yaml', firewallManifest);
    write('zones/tests/table.tests.yaml', passing);
    write('zones/other.yaml', firewallManifest.replace('table.example.com', 'other.example.com'));
    write('zones/stray.tests.yaml', passing);
    const run = await runPolicyTests([join(dir, 'zones')]);
    expect(run.errors).toEqual([]);
    expect(run.reports.map((r) => r.zone)).toEqual(['table.example.com']);
    expect(run.skipped).toEqual([{ manifest: join(dir, 'zones/other.yaml'), reason: expect.stringContaining('no cases file (looked for') }]);
    expect(renderRunText(run)).toContain(`skipped ${join(dir, 'zones/other.yaml')}: no cases file`);
  });

  it('--cases with a directory of several manifests is refused', async () => {
    write('d/a.yaml', firewallManifest);
    write('d/b.yaml', firewallManifest.replace('table.example.com', 'b.example.com'));
    const cases = write('c.tests.yaml', passing);
    const run = await runPolicyTests([join(dir, 'd')], { cases });
    expect(run.reports).toEqual([]);
    expect(run.errors.map((e) => e.message)).toEqual([`--cases gives the cases of one manifest, but ${join(dir, 'd')} holds 2: name one manifest, or let each find its own cases file`]);
  });

  it('a manifest named on its own without cases is an error; so is a run that tests nothing', async () => {
    const manifest = write('lonely.yaml', firewallManifest);
    const run = await runPolicyTests([manifest]);
    expect(run.errors.map(formatIssue)).toEqual([expect.stringMatching(/lonely\.yaml: no cases file \(looked for .*lonely\.tests\.yaml and .*tests\/lonely\.tests\.yaml\); write one, or give --cases FILE$/)]);
    write('d/x.yaml', firewallManifest);
    const empty = await runPolicyTests([join(dir, 'd')]);
    expect(empty.errors.map((e) => e.message)).toEqual(['no manifest here has a cases file, so nothing was tested']);
  });

  it('an invalid cases file or a bad rule name stops that manifest, with located errors', async () => {
    const manifest = write('table.yaml', firewallManifest);
    write('table.tests.yaml', '- name: x\n  expect: { matched: firewall_rules.nope }\n');
    const run = await runPolicyTests([manifest]);
    expect(run.reports).toEqual([]);
    expect(run.errors.map(formatIssue)).toEqual([`${join(dir, 'table.tests.yaml')}:2:22: [0].expect.matched: no firewall rule "nope" in ${manifest} (it has: log-api, bypass-office-api, log-admin, allow-office, block-admin, js-challenge-countries, challenge-curl, challenge-wordpress, ...)`]);
  });
});

describe('every error of a cases file in one run', () => {
  it('schema errors, request errors, duplicate names and unknown rule names, each located', async () => {
    const manifest = write('table.yaml', firewallManifest);
    const cases = write('table.tests.yaml', [
      '- name: bad action',
      '  expect: { action: blok }',
      '- name: bad field',
      '  request: { path: /a, fields: { cf.threat_score: high } }',
      '  expect: { action: block }',
      '- name: bad url',
      '  request: { url: not-a-url, bogus: 1 }',
      '  expect: { action: block }',
      '- name: bad field',
      '  request: { path: /b }',
      '  expect: { action: block, matched: firewall_rules.block-admn }',
      '- name: unknown rule',
      '  request: { path: /c }',
      '  expect: { action: block, matched: firewall_rules.nope }',
      '',
    ].join('\n'));
    const run = await runPolicyTests([manifest]);
    expect(run.reports).toEqual([]);
    expect(run.errors.map(formatIssue).map((e) => e.replace(`${cases}:`, '')).sort()).toEqual([
      '11:37: [3].expect.matched: no firewall rule "block-admn" in ' + manifest + '; did you mean "block-admin"?',
      '14:37: [4].expect.matched: no firewall rule "nope" in ' + manifest + ' (it has: log-api, bypass-office-api, log-admin, allow-office, block-admin, js-challenge-countries, challenge-curl, challenge-wordpress, ...)',
      '2:21: [0].expect.action: must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass, skip (got "blok"; did you mean "block"?)',
      '4:51: [1].request.fields["cf.threat_score"]: expected an integer, got "high"',
      '7:19: [2].request.url: must be an absolute http(s) URL such as "https://example.com/login?x=1" (got "not-a-url")',
      '7:30: [2].request.bogus: unknown property "bogus" (allowed: method, scheme, host, path, query, url, headers, ip, country, body, fields)',
      '9:9: [3].name: duplicate case name "bad field": already used at line 3; names must be unique',
    ]);
  });
});

describe('views', () => {
  it('text: a row per case with the deciding rule, failures located, why lines, a summary', async () => {
    const manifest = write('table.yaml', firewallManifest);
    write('table.tests.yaml', passing + failing.replace(/^/, ''));
    const text = renderRunText(await runPolicyTests([manifest]));
    expect(text).toContain('zone table.example.com');
    expect(text).toMatch(/ {2}pass {4}admin from outside is blocked +block, firewall_rules.block-admin +block +firewall_rules\.block-admin\n/);
    expect(text).toMatch(/ {2}FAIL {4}admin from outside is allowed +allowed +block +firewall_rules\.block-admin\n/);
    expect(text).toContain(`${join(dir, 'table.tests.yaml')}:4:9: expected the request to be allowed, got block by firewall_rules.block-admin`);
    expect(text).toContain('why: firewall_rules.block-admin (block): starts_with(http.request.uri.path, "/admin")');
    expect(text).toContain('1 passed, 1 failed');
    expect(text).not.toContain('\u001b[');
  });

  it('colors only when the style says so', async () => {
    const manifest = write('table.yaml', firewallManifest);
    write('table.tests.yaml', failing);
    const red = (s: string) => `<r>${s}</r>`;
    const text = renderRunText(await runPolicyTests([manifest]), { red, green: (s) => s, dim: (s) => s, bold: (s) => s });
    expect(text).toContain('<r>FAIL');
  });

  it('JSON: versioned, every result with expected and actual, and the errors', async () => {
    const manifest = write('table.yaml', firewallManifest);
    write('table.tests.yaml', failing);
    const doc = runJson(await runPolicyTests([manifest])) as { format_version: string; passed: boolean; reports: { results: unknown[] }[]; errors: unknown[] };
    expect(doc.format_version).toBe('1.0');
    expect(doc.passed).toBe(false);
    expect(doc.reports[0]!.results[0]).toEqual({
      name: 'admin from outside is allowed',
      pass: false,
      expected: { allowed: true },
      actual: { action: 'block', decided_by: 'firewall_rules', rule: 'firewall_rules.block-admin', matched: ['firewall_rules.log-admin', 'firewall_rules.block-admin'] },
      why: 'firewall_rules.block-admin (block): starts_with(http.request.uri.path, "/admin")',
      failures: ['expected the request to be allowed, got block by firewall_rules.block-admin'],
      location: { file: join(dir, 'table.tests.yaml'), line: 1, column: 9 },
    });
  });

  it('notes, in text and JSON, a previous WAF modelled at its defaults in validation mode without previous_waf', async () => {
    // What `zonewall migrate --mode validation --write` leaves: managed_rules, no previous_waf.
    const manifest = write('v.yaml', 'zone: v.example.com\nwaf_migration: validation\nmanaged_rules:\n  - ruleset: owasp\n');
    write('v.tests.yaml', '- name: home\n  request: { path: /, headers: { User-Agent: Mozilla/5.0 } }\n  expect: { allowed: true }\n');
    const run = await runPolicyTests([manifest]);
    expect(run.reports[0]!.notes).toEqual([expect.stringMatching(/^waf_migration is validation, so the previous WAF still runs, but the manifest has no previous_waf: offline it runs at its defaults/)]);
    expect(renderRunText(run)).toContain('note: waf_migration is validation');
    expect((runJson(run) as { reports: { notes?: string[] }[] }).reports[0]!.notes).toHaveLength(1);
    // With previous_waf stated, or on the new WAF only, there is nothing to assume.
    const stated = write('s.yaml', 'zone: s.example.com\nwaf_migration: validation\nprevious_waf:\n  packages:\n    owasp: { sensitivity: low }\nmanaged_rules:\n  - ruleset: owasp\n');
    write('s.tests.yaml', '- name: home\n  request: { path: /, headers: { User-Agent: Mozilla/5.0 } }\n  expect: { allowed: true }\n');
    expect((await runPolicyTests([stated])).reports[0]!.notes).toBeUndefined();
  });
});
