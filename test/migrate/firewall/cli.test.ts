/**
 * `zonewall migrate firewall-rules` end to end (the built CLI in a child process, files in a temp
 * directory): the dry run (report, proof over the zone's cases and the generated corpus, diff, the
 * file untouched), `--write`, `--json`, a rule that cannot be carried over and a request whose
 * verdict changes (both refuse the write and fail the run without `--force`), and bad input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, zonewall } from '../../helpers/e2e-cli.js';
import { generatedZone } from '../../../support/generated-zone.js';
import { firewallUpgradeReport, renderFirewallUpgradeText } from '../../../src/cli/views/firewall-upgrade.js';
import { validateManifestText } from '../../../src/manifest/index.js';
import { upgradeFirewallManifest } from '../../../src/migrate/index.js';
import { proveEquivalence } from '../../../src/policy/index.js';

const manifest = `# the shop
zone: shop.example.com
plan: enterprise

filters:
  api:
    expression: starts_with(http.request.uri.path, "/api") and not ip.src in {203.0.113.0/24}
firewall_rules:
  allow-office:                       # the office is trusted
    action: allow
    filter: { expression: 'ip.src in {203.0.113.0/24}' }
  challenge-api: { action: managed_challenge, filter: api, priority: 10 }
  log-api: { action: log, filter: api, priority: 10 }
  block-bots:
    action: block
    filter: { expression: 'http.user_agent contains "badbot"' }
`;

const cases = `cases:
  - name: office reaches the API   # trusted
    request: { path: /api/orders, ip: 203.0.113.9 }
    expect: { action: allow, matched: firewall_rules.allow-office }
  - name: outsiders are challenged on the API
    request: { path: /api/orders, ip: 198.51.100.1 }
    expect: { action: managed_challenge }
`;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  requireBuild();
  ({ dir, cleanup } = tempDir('fw-upgrade'));
});
afterAll(() => cleanup());

function files(name: string, text: string, casesText?: string): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, text);
  if (casesText !== undefined) writeFileSync(join(dir, `${name}.tests.yaml`), casesText);
  return path;
}

describe('zonewall migrate firewall-rules', () => {
  it('dry run: prints the conversion, the proof over the cases and the corpus, the diff, and writes nothing', async () => {
    const path = files('shop', manifest, cases);
    const run = await zonewall(['migrate', 'firewall-rules', path]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('4 firewall rule(s) of shop.example.com become custom rules, in evaluation order:');
    // allow-office has priority 1 (the first key), the two on filter api tie at 10 (log first), block-bots gets 11.
    expect(run.stdout).toMatch(/allow-office.*skip ruleset: current\n.*firewall_rules\.log-api \(filter api\) -> custom_rules\.log-api: log\n.*firewall_rules\.challenge-api \(filter api\) -> custom_rules\.challenge-api: managed_challenge\n.*block-bots.*block\n/);
    expect(run.stdout).toMatch(/Equivalence proof: 2 case\(s\) of .*shop\.tests\.yaml \+ \d+ request\(s\) generated from 3 expression\(s\): every verdict is the same\./);
    expect(run.stdout).toContain('+custom_rules:\n');
    expect(run.stdout).toContain('not written: run again with --write');
    expect(readFileSync(path, 'utf8')).toBe(manifest);
  });

  it('--write writes the custom rules and the cases; the manifest validates and its cases still pass', async () => {
    const path = files('shop-write', manifest, cases);
    const casesFile = join(dir, 'shop-write.tests.yaml');
    expect((await zonewall(['test', path])).code).toBe(0);
    const run = await zonewall(['migrate', 'firewall-rules', path, '--write']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Wrote ${path}: 4 custom rule(s) in place of 4 firewall rule(s) and 3 filter(s) (inline ones included) and ${casesFile} (its cases now name the custom rules).`);
    expect(readFileSync(casesFile, 'utf8')).toContain('expect: { matched: custom_rules.allow-office, allowed: true }');
    const tested = await zonewall(['test', path]);
    expect(tested.stdout).toMatch(/2 passed/);
    expect(tested.code).toBe(0);
    const written = readFileSync(path, 'utf8');
    expect(written).toContain('  allow-office:\n    action: skip\n');
    expect(written).not.toMatch(/^(firewall_rules|filters):/m);
    expect((await zonewall(['validate', path])).code).toBe(0);
    // Nothing left to convert: a second run says so.
    const again = await zonewall(['migrate', 'firewall-rules', path]);
    expect(again.stdout).toContain('has no filters or firewall_rules: nothing to convert');
    const json = JSON.parse((await zonewall(['migrate', 'firewall-rules', path, '--json'])).stdout);
    expect(json).toMatchObject({ format_version: '1.0', kind: 'zonewall.firewall-upgrade', converted: [], findings: [], proof: null, blockers: [], written: false });
  });

  it('on a zone that runs the firewall rules, the written manifest plans the custom rules and the deletions; applied, the next plan is empty', async () => {
    const path = files('live', manifest);
    const state = join(dir, 'live-state');
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve'])).code).toBe(0);
    expect((await zonewall(['migrate', 'firewall-rules', path, '--write'])).code).toBe(0);
    const plan = await zonewall(['plan', path, '--state-dir', state]);
    expect(plan.stdout).toContain('Plan: 4 to add, 0 to change, 0 to replace, 7 to destroy.');
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve'])).code).toBe(0);
    expect((await zonewall(['plan', path, '--state-dir', state, '--detailed-exitcode'])).code).toBe(0);
  });

  it('the same on a zone of 200 firewall rules: the deletions are a danger finding until apply --force', async () => {
    const path = files('live-200', generatedZone({ rules: 200, filters: 150, zone: 'live200.example.com' }));
    const state = join(dir, 'live-200-state');
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve'])).code).toBe(0);
    expect((await zonewall(['migrate', 'firewall-rules', path, '--write'])).code).toBe(0);
    const plan = await zonewall(['plan', path, '--state-dir', state]);
    expect(plan.stdout).toContain('Plan: 200 to add, 0 to change, 0 to replace, 350 to destroy.');
    expect(plan.stdout).toContain('deletes-too-many');
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve'])).code).not.toBe(0);
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve', '--force'])).code).toBe(0);
    expect((await zonewall(['plan', path, '--state-dir', state, '--detailed-exitcode'])).code).toBe(0);
  });

  it('--json prints the report as data', async () => {
    const path = files('shop-json', manifest, cases);
    const run = await zonewall(['migrate', 'firewall-rules', path, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ format_version: '1.0', manifest: path, zone: 'shop.example.com', blockers: [], forced: false, written: false });
    expect(report.converted[0]).toEqual({ firewall_rule: 'allow-office', filter: 'allow-office', custom_rule: 'allow-office', action: 'skip', enabled: true, action_parameters: { ruleset: 'current' } });
    expect(report.proof).toMatchObject({ cases: 2, differences: [] });
    expect(report.proof.generated).toBeGreaterThan(10);
    expect(report.diff).toContain('+custom_rules:');
  });

  it('a rule that cannot be carried over blocks the write without --force (paused rules count for custom rules)', async () => {
    const rules = Array.from({ length: 6 }, (_, i) => `  r${i}: { action: block, filter: { expression: 'ip.src eq 192.0.2.${i + 1}' }${i === 5 ? ', paused: true' : ''} }`).join('\n');
    const text = `zone: small.example.com\nplan: free\nfirewall_rules:\n${rules}\n`;
    const path = files('small', text);
    const run = await zonewall(['migrate', 'firewall-rules', path, '--write']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/cannot-carry .*the rewritten manifest would not validate.*free plan allows 5 custom rules/);
    expect(run.stdout).toContain('not written: 1 finding(s) cannot be carried over exactly');
    expect(readFileSync(path, 'utf8')).toBe(text);
    const json = JSON.parse((await zonewall(['migrate', 'firewall-rules', path, '--json'])).stdout);
    expect(json.blockers).toEqual(['1 finding(s) cannot be carried over exactly']);
    expect(json.proof).toBeNull();
    const forced = await zonewall(['migrate', 'firewall-rules', path, '--write', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toContain('custom_rules:');
  });

  // The conversion is faithful (an `allow` and the skip it becomes both leave the WAFs running,
  // issue 32), so no manifest makes the CLI's own proof differ; a differing verdict comes from a
  // converted manifest edited afterwards. These two run the CLI's report over such an edit.
  function edited(text: string, edit: (converted: string) => string) {
    const before = validateManifestText(text, 'zone.yaml').zone!;
    const up = upgradeFirewallManifest('zone.yaml', text, before);
    const after = validateManifestText(edit(up.text), 'zone.yaml');
    expect(after.issues).toEqual([]);
    const proof = proveEquivalence({ before, after: after.zone!, cases: [], renames: up.renames });
    return firewallUpgradeReport('zone.yaml', before.zone, up, proof, { file: undefined, diff: '' }, { force: false, written: false });
  }

  it('a request whose verdict differs is listed with both verdicts and blocks the write without --force', () => {
    const text = 'zone: scan.example.com\nfirewall_rules:\n  allow-scanner:\n    action: allow\n    filter: { expression: \'http.user_agent contains "sqlmap"\' }\n';
    // The converted skip, edited into a challenge.
    const report = edited(text, (t) => t.replace('action: skip', 'action: managed_challenge').replace(/\n\s*action_parameters: \{ ruleset: current \}/, ''));
    expect(report.blockers).toEqual([expect.stringMatching(/request\(s\) get a different verdict/)]);
    const out = renderFirewallUpgradeText(report);
    expect(out).toMatch(/verdict\(s\) differ:\n  generated "witness": \{"headers":\{"User-Agent":"sqlmap"\},"host":"scan.example.com"\}\n    before: allow by firewall_rules.allow-scanner/);
    expect(out).toMatch(/    after: +managed_challenge by custom_rules\.allow-scanner/);
    expect(out).toContain('note firewall_rules.allow-scanner: allow becomes a skip of the remaining custom rules');
    expect(report.proof!.differences[0]).toMatchObject({ source: 'generated', before: { action: 'allow', rule: 'firewall_rules.allow-scanner' }, after: { action: 'managed_challenge', rule: 'custom_rules.allow-scanner' } });
  });

  it('shows the first 20 differences in text, and every one in JSON', () => {
    const rules = Array.from({ length: 12 }, (_, i) => `  allow-${i}: { action: allow, filter: { expression: 'http.user_agent contains "sqlmap${i}"' } }`).join('\n');
    const report = edited(`zone: many.example.com\nfirewall_rules:\n${rules}\n`, (t) => t.replaceAll('action: skip', 'action: block').replace(/\n\s*action_parameters: \{ ruleset: current \}/g, ''));
    const n = report.proof!.differences.length;
    expect(n).toBeGreaterThan(20);
    const text = renderFirewallUpgradeText(report);
    expect(text.match(/^    before: /gm)).toHaveLength(20);
    expect(text).toContain(`  ... and ${n - 20} more (--json lists every one)`);
  });

  it('bad input: an invalid manifest, a missing file, an invalid cases file', async () => {
    const bad = files('bad', 'zone: a.example.com\nfirewall_rules:\n  r: { action: blok, filter: { expression: "true" } }\n');
    const run = await zonewall(['migrate', 'firewall-rules', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.yaml:3:\d+: .*must be one of/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const missing = await zonewall(['migrate', 'firewall-rules', join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*nope\.yaml/);
    const path = files('badcases', manifest, 'cases:\n  - name: x\n    request: { pth: / }\n    expect: { allowed: true }\n');
    const cased = await zonewall(['migrate', 'firewall-rules', path]);
    expect(cased.code).toBe(1);
    expect(cased.stderr).toMatch(/badcases\.tests\.yaml:3:\d+/);
  });
});
