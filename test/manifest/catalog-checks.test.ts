/**
 * `managed_rules` checked against the managed ruleset catalog at validate/plan time, with positions:
 * before, `category: wordpres` or an unknown rule id passed validation and the service refused the
 * apply (20201/20202).
 */
import { describe, expect, it } from 'vitest';
import { doc, issuesOf } from './helpers/issues.js';

const z = 'zone: example.com';

describe('managed_rules against the catalog', () => {
  it.each<[string, string, string[]]>([
    ['a misspelt category', doc(z, 'managed_rules:', '  - ruleset: managed', '    overrides:', '      categories:', '        - { category: wordpres, enabled: false }'),
      ['zone.yaml:6:23: managed_rules[0].overrides.categories[0].category: no rule of Cloudflare Managed Ruleset has the category (tag) "wordpres"; did you mean "wordpress"?']],
    ['a rule id the ruleset does not have', doc(z, 'managed_rules:', '  - ruleset: managed', '    overrides:', '      rules:', '        - { id: 0000000000000000000000000000000a, action: log }'),
      ['zone.yaml:6:17: managed_rules[0].overrides.rules[0].id: Cloudflare Managed Ruleset has no rule 0000000000000000000000000000000a']],
    ['an OWASP rule under the managed ruleset', doc(z, 'managed_rules:', '  - ruleset: managed', '    overrides:', '      rules:', '        - { id: 6179ae15870a4bb7b2d480d4843b323c, action: log }'),
      ['zone.yaml:6:17: managed_rules[0].overrides.rules[0].id: Cloudflare Managed Ruleset has no rule 6179ae15870a4bb7b2d480d4843b323c']],
    ['an unknown ruleset id', doc(z, 'managed_rules:', '  - ruleset: 0123456789abcdef0123456789abcdef'),
      ['zone.yaml:3:14: managed_rules[0].ruleset: ruleset 0123456789abcdef0123456789abcdef is not a managed ruleset of the catalog; known: managed (efb7b8c949ac4650a09736fc376e9aee), owasp (4814384a9e5d4991b9815dcfc25d2f1f), free (77454fe2d30c4220b5701f6fdfb893ba), exposed_credentials (c2e184081120413c86c3ab7e14069605)']],
    ['a score threshold on a rule without one', doc(z, 'managed_rules:', '  - ruleset: owasp', '    overrides:', '      rules:', '        - { id: a6be45d4905042b9964ff81dc12e41d2, score_threshold: 40 }'),
      ['zone.yaml:6:68: managed_rules[0].overrides.rules[0].score_threshold: rule a6be45d4905042b9964ff81dc12e41d2 of Cloudflare OWASP Core Ruleset has no anomaly score threshold; only 6179ae15870a4bb7b2d480d4843b323c takes score_threshold']],
  ])('%s', (_name, text, expected) => {
    expect(issuesOf(text)).toEqual(expected);
  });

  it('accepts the catalog\'s rulesets, rules and categories', () => {
    expect(issuesOf(doc(z, 'managed_rules:', '  - ruleset: efb7b8c949ac4650a09736fc376e9aee', '    overrides:',
      '      categories: [{ category: wordpress, enabled: false }]', '      rules: [{ id: 5f6744fa026a4638bda5b3d7d5e015dd, action: log }]',
      '  - ruleset: owasp', '    overrides:', '      categories: [{ category: xss, action: log }]',
      '      rules: [{ id: 6179ae15870a4bb7b2d480d4843b323c, score_threshold: 60 }]'))).toEqual([]);
  });
});

describe('page_rules', () => {
  it('reports a missing action, a bad value and a repeated url with positions', () => {
    expect(issuesOf(doc(z, 'page_rules:', '  images:', '    url: "*example.com/images/*"', '  again:', '    url: "*example.com/images/*"', '    waf: off',
      '  bad:', '    url: example.com/x', '    disable_security: false'))).toEqual([
      'zone.yaml:3:3: page_rules.images: needs an action: disable_security: true, or waf: on|off',
      'zone.yaml:6:10: page_rules.again.url: same url as page_rules.images (line 4); a Page Rule is matched by its URL pattern: merge the two',
      'zone.yaml:10:23: page_rules.bad.disable_security: must be true (got false)',
    ]);
  });
});
