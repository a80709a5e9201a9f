/** The manifest rewrite: filters + firewall_rules out, custom_rules in, everything else as written. */
import { describe, expect, it } from 'vitest';
import { applyPatch } from 'diff';
import { parse } from 'yaml';
import { validateManifestText } from '../../../src/manifest/index.js';
import { ConvertedComment, manifestDiff, upgradeFirewallManifest } from '../../../src/migrate/index.js';
import { generatedZone } from '../../../support/generated-zone.js';

function upgrade(text: string) {
  const loaded = validateManifestText(text, 'zone.yaml');
  expect(loaded.issues).toEqual([]);
  return upgradeFirewallManifest('zone.yaml', text, loaded.zone!);
}

const manifest = `# my zone
zone: example.com   # prod

# Filters shared by rules
filters:
  api:
    expression: >-
      starts_with(http.request.uri.path, "/api")
      and ip.src in {203.0.113.0/24}
    description: API   # the api

# the rules
firewall_rules:
  allow-office: { action: allow, filter: api }
  block-ua:
    action: block
    filter: { expression: 'http.user_agent  contains "sqlmap"' }
    description: no scanners
  by: { action: bypass, filter: api, products: [waf, zoneLockdown], paused: true }

# managed
managed_rules:
  - ruleset: managed   # default
`;

describe('upgradeFirewallManifest', () => {
  const up = upgrade(manifest);

  it('puts custom_rules where firewall_rules was, in evaluation order, keeping the rest byte for byte', () => {
    expect(up.text.startsWith('# my zone\nzone: example.com   # prod\n\n#' + ConvertedComment + '\ncustom_rules:\n')).toBe(true);
    expect(up.text.endsWith('\n# managed\nmanaged_rules:\n  - ruleset: managed   # default\n')).toBe(true);
    expect(up.text).not.toContain('Filters shared by rules');
    expect(Object.keys(parse(up.text))).toEqual(['zone', 'custom_rules', 'managed_rules']);
  });

  it('writes each rule with its filter\'s expression as written, and only what differs from the defaults', () => {
    expect(parse(up.text).custom_rules).toEqual({
      'allow-office': { action: 'skip', expression: 'starts_with(http.request.uri.path, "/api") and ip.src in {203.0.113.0/24}', description: 'API', action_parameters: { ruleset: 'current' } },
      'block-ua': { action: 'block', expression: 'http.user_agent  contains "sqlmap"', description: 'no scanners' },
      by: { action: 'skip', expression: 'starts_with(http.request.uri.path, "/api") and ip.src in {203.0.113.0/24}', description: 'API', enabled: false, action_parameters: { products: ['zoneLockdown', 'waf'] } },
    });
    expect(up.text).toContain('    action_parameters: { ruleset: current }\n');
  });

  it('loads the rewritten manifest as the custom rules the conversion made', () => {
    expect(up.after?.filters).toEqual([]);
    expect(up.after?.firewallRules).toEqual([]);
    expect(up.after?.customRules?.map((r) => [r.ref, r.action, r.enabled])).toEqual(up.conversion.customRules.map((r) => [r.ref, r.action, r.enabled]));
    expect(up.diff).toContain('-firewall_rules:\n');
    expect(up.diff).toContain('+custom_rules:\n');
  });

  it('puts converted rules first in an existing custom_rules, above the comments of its first rule', () => {
    const text = 'zone: example.com\nfirewall_rules:\n  r1: { action: challenge, filter: { expression: \'ip.src eq 192.0.2.1\' } }\n  existing: { action: block, filter: { expression: \'true\' } }\ncustom_rules:\n  # the old one\n  existing:\n    action: block\n    expression: http.host eq "x.com"   # keep me\nplan: enterprise\n';
    const out = upgrade(text);
    expect(out.text).toBe(`zone: example.com\ncustom_rules:\n  #${ConvertedComment}\n  r1:\n    action: challenge\n    expression: ip.src eq 192.0.2.1\n  existing-2:\n    action: block\n    expression: "true"\n  # the old one\n  existing:\n    action: block\n    expression: http.host eq "x.com"   # keep me\nplan: enterprise\n`);
    expect([...out.renames]).toEqual([['existing', 'existing-2']]);
  });

  it('carries each firewall rule\'s comments to the custom rule it became', () => {
    const text = 'zone: example.com\nfirewall_rules:\n  # reviewed 2024\n  a:   # the office\n    action: allow\n    filter: { expression: \'ip.src eq 192.0.2.1\' }\n  b: { action: block, filter: { expression: \'true\' } }   # everything else\n';
    expect(upgrade(text).text).toBe(`zone: example.com\n#${ConvertedComment}\ncustom_rules:\n  # reviewed 2024\n  # the office\n  a:\n    action: skip\n    expression: ip.src eq 192.0.2.1\n    action_parameters: { ruleset: current }\n  # everything else\n  b:\n    action: block\n    expression: "true"\n`);
  });

  it('re-serialises a flow-mapping manifest', () => {
    const out = upgrade("{zone: example.com, filters: {f: {expression: 'true'}}, firewall_rules: {r: {action: block, filter: f}}, custom_rules: {}}\n");
    expect(parse(out.text)).toEqual({ zone: 'example.com', custom_rules: { r: { action: 'block', expression: 'true' } } });
  });

  it('turns a rewritten manifest that exceeds the plan\'s custom rules quota into a cannot-carry finding', () => {
    const rules = Array.from({ length: 6 }, (_, i) => `  r${i}: { action: block, filter: { expression: 'ip.src eq 192.0.2.${i + 1}' }, paused: true }`).join('\n');
    const out = upgrade(`zone: example.com\nplan: free\nfirewall_rules:\n${rules}\n`);
    expect(out.after).toBeUndefined();
    expect(out.conversion.findings.filter((f) => f.kind === 'cannot-carry').map((f) => f.message).join('\n')).toMatch(/custom rules/);
  });

  it('diffs a rewrite of thousands of lines as one hunk that still applies', () => {
    const text = generatedZone({ rules: 1000, filters: 700 });
    const big = upgrade(text);
    expect(big.diff.match(/^@@ /gm)).toHaveLength(1);
    expect(applyPatch(text, big.diff)).toBe(big.text);
    // A small rewrite keeps the line diff, whose hunks apply too.
    expect(applyPatch(manifest, up.diff)).toBe(up.text);
    expect(manifestDiff('a.yaml', 'a: 1\nb: 2\n', 'a: 1\nb: 3\n')).toBe('--- a.yaml\tcurrent\n+++ a.yaml\tmigrated\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n');
  });
});

describe('rule keys that look like numbers', () => {
  // JavaScript lists keys like "20" and "3" first, in numeric order: the rewrite did not read back as
  // written (ERR_INTERNAL) and the loader ran the rules in another order than the file says.
  it('converts, writes and reads back the rules in evaluation order (block, existing and flow sections)', () => {
    const ties = 'zone: example.com\nplan: enterprise\nfirewall_rules:\n  "20": { action: block, priority: 1, filter: { expression: \'ip.src eq 192.0.2.1\' } }\n  "3": { action: log, priority: 2, filter: { expression: \'ip.src eq 192.0.2.2\' } }\n';
    for (const text of [
      ties,
      `${ties}custom_rules:\n  "7":\n    action: block\n    expression: http.host eq "x.com"\n  "1":\n    action: log\n    expression: http.host eq "y.com"\n`,
      `${ties}custom_rules: { "7": { action: block, expression: http.host eq "x.com" } }\n`,
    ]) {
      const out = upgrade(text);
      const refs = out.after!.customRules!.map((r) => r.ref);
      expect(refs.slice(0, 2)).toEqual(['20', '3']);
      if (text.includes('"7"')) expect(refs.slice(2)).toEqual(text.includes('"1"') ? ['7', '1'] : ['7']);
    }
  });
});
