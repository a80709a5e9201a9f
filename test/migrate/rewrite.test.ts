import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { manifestDiff, MigratedComment, rewriteManifest } from '../../src/migrate/rewrite.js';
import type { ManagedRuleEntry } from '../../src/migrate/managed-rules.js';

const managedRules: ManagedRuleEntry[] = [
  { ruleset: 'managed', overrides: { rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log' }] } },
  { ruleset: 'owasp', paranoia_level: 2, score_threshold: 'medium', action: 'challenge' },
];

const manifest = `# yaml-language-server: $schema=../schemas/zone-manifest.schema.json
zone: example.com   # production

filters:
  api-paths:
    expression: http.request.uri.path matches "^/api/"   # all of the API
    description: 'API traffic'

# The previous WAF, tuned in 2019.
previous_waf:
  packages:
    owasp: { sensitivity: high, action_mode: simulate }  # noisy
  rules:
    '100514': simulate
  # end of the WAF settings

# Rules below are reviewed by the security team.
firewall_rules:
  block-scanner: { action: block, filter: api-paths }
`;

describe('rewriteManifest', () => {
  const out = rewriteManifest(manifest, { managedRules, wafMigration: 'validation' });

  it('replaces previous_waf by managed_rules and waf_migration in its place', () => {
    const js = parse(out);
    expect(js.previous_waf).toBeUndefined();
    expect(js.managed_rules).toEqual(managedRules);
    expect(js.waf_migration).toBe('validation');
    expect(Object.keys(js)).toEqual(['zone', 'filters', 'managed_rules', 'waf_migration', 'firewall_rules']);
  });

  it('keeps every other byte as written, comments and quoting included', () => {
    const before = manifest.split('# The previous WAF')[0];
    expect(out.startsWith(before)).toBe(true);
    expect(out.endsWith('# Rules below are reviewed by the security team.\nfirewall_rules:\n  block-scanner: { action: block, filter: api-paths }\n')).toBe(true);
    expect(out).not.toContain('tuned in 2019');
    expect(out).not.toContain('end of the WAF settings');
    expect(out).toContain(`#${MigratedComment}\nmanaged_rules:\n  - ruleset: managed\n    overrides:\n      rules:\n        - { id: 5f6744fa026a4638bda5b3d7d5e015dd, action: log }\n`);
  });

  it('replaces an existing managed_rules and waf_migration where they are', () => {
    const text = 'zone: a.com\nwaf_migration: none # not yet\nmanaged_rules:\n- ruleset: free\nprevious_waf:\n  packages:\n    owasp: { sensitivity: low }\nlast: 1\n';
    const r = rewriteManifest(text, { managedRules: [{ ruleset: 'managed' }], wafMigration: 'pending' });
    // The file does not indent sequences: neither does the rewrite.
    expect(r).toBe('zone: a.com\nwaf_migration: pending\nmanaged_rules:\n- ruleset: managed\nlast: 1\n');
  });

  it('leaves the manifest\'s own managed_rules alone when none are given', () => {
    const text = 'zone: a.com\nmanaged_rules:\n  - ruleset: owasp   # tuned\n    paranoia_level: 3\n\nprevious_waf:\n  rules: { "100514": block }\n\nfilters: {}\n';
    const r = rewriteManifest(text, { wafMigration: 'pending' });
    expect(r).toBe('zone: a.com\nmanaged_rules:\n  - ruleset: owasp   # tuned\n    paranoia_level: 3\nwaf_migration: pending\n\nfilters: {}\n');
  });

  it('keeps CRLF line endings', () => {
    const r = rewriteManifest('zone: a.com\r\nprevious_waf:\r\n  rules: { "100514": block }\r\nfilters: {}\r\n', { managedRules: [{ ruleset: 'managed' }], wafMigration: 'pending' });
    expect(r).toBe(`zone: a.com\r\n#${MigratedComment}\r\nmanaged_rules:\r\n  - ruleset: managed\r\nwaf_migration: pending\r\nfilters: {}\r\n`);
  });

  it('appends the sections to a manifest that has neither', () => {
    expect(rewriteManifest('zone: a.com', { managedRules: [], wafMigration: 'pending' })).toBe('zone: a.com\nmanaged_rules: []\nwaf_migration: pending\n');
  });

  it('re-serialises a flow-mapping manifest', () => {
    const r = rewriteManifest('{ zone: a.com, previous_waf: { packages: { owasp: { sensitivity: low } } } }\n', { managedRules: [{ ruleset: 'owasp' }], wafMigration: 'validation' });
    expect(parse(r)).toEqual({ zone: 'a.com', managed_rules: [{ ruleset: 'owasp' }], waf_migration: 'validation' });
  });

  it('refuses a manifest that does not parse', () => {
    expect(() => rewriteManifest('zone: [a\n', { managedRules: [] })).toThrow(/cannot rewrite the manifest/);
  });

  it('quotes strings that would read back as other types', () => {
    const r = rewriteManifest('zone: a.com\n', { managedRules: [{ ruleset: 'owasp', expression: 'true' }, { ruleset: '12e45678901234567890123456789012' }] });
    expect(parse(r).managed_rules).toEqual([{ ruleset: 'owasp', expression: 'true' }, { ruleset: '12e45678901234567890123456789012' }]);
  });
});

describe('manifestDiff', () => {
  it('is a unified diff of the two texts, empty when nothing changed', () => {
    const after = rewriteManifest(manifest, { managedRules, wafMigration: 'pending' });
    const diff = manifestDiff('zone.yaml', manifest, after);
    expect(diff).toContain('--- zone.yaml\tcurrent');
    expect(diff).toContain('+++ zone.yaml\tmigrated');
    expect(diff).toContain('-previous_waf:');
    expect(diff).toContain('+waf_migration: pending');
    expect(manifestDiff('zone.yaml', manifest, manifest)).toBe('');
  });
});
