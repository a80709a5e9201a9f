import { describe, expect, it } from 'vitest';
import { doc, issuesOf } from './helpers/issues.js';

const z = 'zone: example.com';

describe('semantic checks', () => {
  it.each<[string, string, string[]]>([
    ['a rule naming a filter key that does not exist', doc(z, 'filters:', '  api-paths: {expression: ssl}', 'firewall_rules:', '  r:',
      '    action: block', '    filter: api-pahts'),
    ['zone.yaml:7:13: firewall_rules.r.filter: filter "api-pahts" is not a key of filters (did you mean "api-paths"?)']],
    ['rules naming what every map inherits', doc(z, 'filters:', '  api: {expression: ssl}', 'firewall_rules:', '  r1:',
      '    action: block', '    filter: constructor', '  r2:', '    action: block', '    filter: toString'),
    ['zone.yaml:7:13: firewall_rules.r1.filter: filter "constructor" is not a key of filters',
      'zone.yaml:10:13: firewall_rules.r2.filter: filter "toString" is not a key of filters']],
    ['a filter key in a manifest without filters', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter: nope'),
      ['zone.yaml:5:13: firewall_rules.r.filter: filter "nope" is not a key of filters; the manifest has no filters section']],
    ['naming another rule\'s inline filter', doc(z, 'firewall_rules:', '  a:', '    action: block', '    filter: {expression: ssl}',
      '  b:', '    action: log', '    filter: a'),
    ['zone.yaml:8:13: firewall_rules.b.filter: filter "a" is the inline filter of firewall_rules.a; inline filters cannot be shared: move it to filters to share it']],
    ['a key used both as a filter and as an inline filter\'s ref', doc(z, 'filters:', '  same: {expression: ssl}', 'firewall_rules:',
      '  same:', '    action: block', '    filter:', '      expression: not ssl'),
    ['zone.yaml:7:5: firewall_rules.same.filter: this inline filter\'s ref is the rule\'s key "same", which is also the key of filters.same (line 3): rename the rule, or use filter: same']],
    ['two filters with the same expression (canonical forms)', doc(z, 'filters:', '  a:', '    expression: http.host eq "x"',
      '  b:', '    expression: http.host  ==  "x"'),
    ['zone.yaml:6:17: filters.b.expression: same expression as filters.a (line 3); the service refuses duplicate filters: keep one and share it between rules']],
    ['two filters with one set written in another order', doc(z, 'filters:', '  a:', '    expression: ip.src in {10.0.0.1 10.0.0.2}',
      '  b:', '    expression: ip.src in {10.0.0.2 10.0.0.1 10.0.0.2}'),
    ['zone.yaml:6:17: filters.b.expression: same expression as filters.a (line 3); the service refuses duplicate filters: keep one and share it between rules']],
    ['an inline filter repeating a shared one', doc(z, 'filters:', '  a: {expression: not ssl}', 'firewall_rules:', '  r:',
      '    action: block', '    filter:', '      expression: not  ssl'),
    ['zone.yaml:8:19: firewall_rules.r.filter.expression: same expression as filters.a (line 3); the service refuses duplicate filters: use filter: a instead']],
    ['two inline filters with the same expression', doc(z, 'firewall_rules:', '  r1:', '    action: block', '    filter: {expression: ssl}',
      '  r2:', '    action: block', '    filter:', '      expression: ssl'),
    ['zone.yaml:9:19: firewall_rules.r2.filter.expression: same expression as firewall_rules.r1.filter (line 5); the service refuses duplicate filters: keep one and share it between rules']],
    ['expression length', doc(z, 'filters:', '  long:', `    expression: ${'http.host eq "x" or '.repeat(205)}ssl`),
      ['zone.yaml:4:17: filters.long.expression: expression is 4103 characters long; the service accepts at most 4096']],
    ['renamed_from naming a key still in use', doc(z, 'filters:', '  a: {expression: ssl}', '  b: {expression: not ssl, renamed_from: a}'),
      ['zone.yaml:4:42: filters.b.renamed_from: renamed_from "a" names a filter key that is still in the manifest; a rename moves the live filter from the old key to the new one, so the old key must be gone']],
    ['two renames of one old key', doc(z, 'firewall_rules:', '  a:', '    action: block', '    filter: {expression: ssl}', '    renamed_from: old',
      '  b:', '    action: block', '    filter: {expression: not ssl}', '    renamed_from: old'),
    ['zone.yaml:10:19: firewall_rules.b.renamed_from: renamed_from "old" is already claimed by firewall_rules.a (line 6); one live filter can only become one new filter',
      'zone.yaml:10:19: firewall_rules.b.renamed_from: renamed_from "old" is already claimed by firewall_rules.a (line 6); one live rule can only become one new rule']],
    ['renamed_from its own key', doc(z, 'filters:', '  a: {expression: ssl, renamed_from: a}'),
      ['zone.yaml:3:38: filters.a.renamed_from: renamed_from is the filter\'s own key; remove it']],
    ['an implicit priority equal to an explicit one', doc(z, 'firewall_rules:', '  a:', '    action: block', '    filter: {expression: ssl}',
      '    priority: 10', '  b:', '    action: block', '    filter: {expression: not ssl}', '  c:', '    action: allow',
      '    filter: {expression: http.host eq "c"}', '    priority: 11'),
    ['zone.yaml:10:3: firewall_rules.c: has priority 11, which firewall_rules.b (line 7) also gets from key order; the service runs equal priorities in action order, not key order: give the rules distinct priorities']],
    ['a rule without priority after priority: null', doc(z, 'firewall_rules:', '  a:', '    action: block', '    filter: {expression: ssl}',
      '    priority: null', '  b:', '    action: block', '    filter: {expression: not ssl}'),
    ['zone.yaml:7:3: firewall_rules.b: has no priority but comes after firewall_rules.a, which has priority: null; it would run before that rule: move it above, or set priority: null or a number here']],
    ['an implicit priority past the maximum', doc(z, 'firewall_rules:', '  a:', '    action: block', '    filter: {expression: ssl}',
      '    priority: 2147483647', '  b:', '    action: block', '    filter: {expression: not ssl}'),
    ['zone.yaml:7:3: firewall_rules.b: its implicit priority (previous rule\'s + 1) is 2147483648, above the maximum 2147483647: give it an explicit priority']],
    ['previous_waf with a finished migration', doc(z, 'waf_migration: pending', 'managed_rules: []', 'previous_waf:', '  packages:',
      '    owasp: {sensitivity: low}'),
    ['zone.yaml:4:1: previous_waf: the previous WAF is gone once migration finishes (waf_migration: pending); remove previous_waf or run zonewall migrate']],
    ['a migration without managed_rules', doc(z, 'waf_migration: pending'),
      ['zone.yaml:2:16: waf_migration: waf_migration: pending needs a managed_rules section: the managed rulesets to migrate to (see zonewall migrate)']],
    ['waf_migration: validation on a zone that is not enterprise', doc(z, 'plan: business', 'waf_migration: validation', 'managed_rules: []'),
      ['zone.yaml:3:16: waf_migration: validation mode needs an Enterprise plan (the zone is on the business plan); use waf_migration: pending to migrate in one step']],
    ['duplicate managed refs', doc(z, 'managed_rules:', '  - ruleset: owasp', '  - ruleset: managed', '    ref: owasp'),
      ['zone.yaml:5:10: managed_rules[1].ref: ref "owasp" is already used by managed_rules[0] (line 3); give one of them its own ref']],
    ['one managed ruleset deployed twice (an alias and its id, each with its ref)', doc(z, 'managed_rules:', '  - ruleset: owasp', '    expression: http.host eq "a.example"',
      '  - ruleset: 4814384a9e5d4991b9815dcfc25d2f1f', '    ref: owasp-rest'),
      ['zone.yaml:5:14: managed_rules[1].ruleset: deploys 4814384a9e5d4991b9815dcfc25d2f1f a second time (managed_rules[0], line 3, deploys it already): the service refuses two execute rules of one managed ruleset (20014); keep one deployment, whose expression and overrides cover both']],
    ['one managed ruleset deployed twice with the default ref', doc(z, 'managed_rules:', '  - ruleset: owasp', '  - ruleset: owasp'),
      ['zone.yaml:4:14: managed_rules[1].ruleset: deploys owasp a second time (managed_rules[0], line 3, deploys it already): the service refuses two execute rules of one managed ruleset (20014); keep one deployment, whose expression and overrides cover both']],
    ['a rule overridden twice', doc(z, 'managed_rules:', '  - ruleset: managed', '    overrides:', '      rules:',
      '        - { id: 5f6744fa026a4638bda5b3d7d5e015dd, action: log }', '        - { id: 5f6744fa026a4638bda5b3d7d5e015dd, enabled: false }'),
    ['zone.yaml:7:17: managed_rules[0].overrides.rules[1].id: id "5f6744fa026a4638bda5b3d7d5e015dd" is already overridden by managed_rules[0].overrides.rules[0]; merge the two overrides']],
    ['paranoia_level beside paranoia-level category overrides', doc(z, 'managed_rules:', '  - ruleset: owasp', '    paranoia_level: 2',
      '    overrides:', '      categories: [{category: paranoia-level-3, enabled: true}]'),
    ['zone.yaml:6:31: managed_rules[0].overrides.categories[0].category: conflicts with paranoia_level, which sets the paranoia-level categories: keep one of them']],
    ['score_threshold beside an override of rule 949110', doc(z, 'managed_rules:', '  - ruleset: owasp', '    score_threshold: low',
      '    overrides:', '      rules: [{id: 6179ae15870a4bb7b2d480d4843b323c, score_threshold: 10}]'),
    ['zone.yaml:6:20: managed_rules[0].overrides.rules[0].id: conflicts with score_threshold/action, which override this rule (949110: Inbound Anomaly Score Exceeded): keep one of them']],
    ['action and overrides.action', doc(z, 'managed_rules:', '  - ruleset: managed', '    action: log', '    overrides: {action: block}'),
      ['zone.yaml:4:13: managed_rules[0].action: sets the same thing as overrides.action; keep one of them']],
    ['settings of the traditional CloudFlare package', doc(z, 'previous_waf:', '  packages:', '    cloudflare: {sensitivity: low}'),
      ['zone.yaml:4:5: previous_waf.packages.cloudflare: the CloudFlare package is a traditional package: it has no sensitivity or action_mode; set its groups and rules instead']],
    ['one package by alias and by id', doc(z, 'previous_waf:', '  packages:', '    owasp: {sensitivity: low}',
      '    c504870194831cd12c3fc0284f294abb: {action_mode: block}'),
    ['zone.yaml:5:5: previous_waf.packages.c504870194831cd12c3fc0284f294abb: is the same package as previous_waf.packages.owasp; keep one']],
  ])('%s', (_name, text, expected) => {
    expect(issuesOf(text)).toEqual(expected);
  });

  it('allows equal explicit priorities (the service orders them by action)', () => {
    const text = doc(z, 'firewall_rules:', '  a:', '    action: block', '    filter: {expression: ssl}', '    priority: 5',
      '  b:', '    action: allow', '    filter: {expression: not ssl}', '    priority: 5');
    expect(issuesOf(text)).toEqual([]);
  });

  it('still checks expressions and references when the schema found other problems', () => {
    const text = doc('zone: 12', 'filters:', '  a: {expression: http.hots eq "x"}', 'firewall_rules:', '  r:', '    action: block',
      '    filter: b');
    const issues = issuesOf(text);
    expect(issues).toContain('zone.yaml:1:7: zone: must be a string (got 12; quote the value to make it a string)');
    expect(issues.some((i) => i.startsWith('zone.yaml:3:19: filters.a.expression: unknown identifier'))).toBe(true);
    expect(issues.some((i) => i.startsWith('zone.yaml:7:13: firewall_rules.r.filter: filter "b" is not a key of filters'))).toBe(true);
  });
});
