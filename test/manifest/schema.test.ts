import { describe, expect, it } from 'vitest';
import { doc, issuesOf } from './helpers/issues.js';

const z = 'zone: example.com';
const k51 = 'k'.repeat(51);

/** [rule, manifest, expected issues]: every schema rule rejects a bad example, at the right place. */
const cases: [string, string, string[]][] = [
  // top level
  ['zone is required', doc('plan: pro'), ['zone.yaml:1:1: missing required field "zone"']],
  ['zone must not be empty', doc('zone: ""'), ['zone.yaml:1:7: zone: must not be empty']],
  ['zone is a string', doc('zone: 12'), ['zone.yaml:1:7: zone: must be a string (got 12; quote the value to make it a string)']],
  ['plan is a tier', doc(z, 'plan: gold'), ['zone.yaml:2:7: plan: must be one of free, pro, business, enterprise (got "gold")']],
  ['unknown top-level field, with a suggestion', doc(z, 'filter: {}'), ['zone.yaml:2:1: filter: unknown field (did you mean "filters"?)']],
  ['filters is a map', doc(z, 'filters:', '  - a'), ['zone.yaml:2:1: filters: must be a map (got a list)']],
  ['managed_rules is a list', doc(z, 'managed_rules: {}'), ['zone.yaml:2:1: managed_rules: must be a list (got a map)']],
  ['waf_migration values', doc(z, 'waf_migration: done'),
    ['zone.yaml:2:16: waf_migration: must be one of none, validation, pending (got "done"; did you mean "none"?)']],
  // keys
  ['keys hold at most 50 characters', doc(z, 'filters:', `  ${k51}:`, '    expression: ssl'),
    [`zone.yaml:3:3: filters.${k51}: key "${k51}" is 51 characters long; keys become the service's ref, which holds at most 50`]],
  ['keys use letters, digits, _ . -', doc(z, 'firewall_rules:', '  "bad key!":', '    action: block', '    filter: {expression: ssl}'),
    ['zone.yaml:3:3: firewall_rules["bad key!"]: key "bad key!" must start with a letter or digit and contain only letters, digits, `_`, `.` and `-`']],
  // filters
  ['a filter needs an expression', doc(z, 'filters:', '  a:', '    description: x'),
    ['zone.yaml:3:3: filters.a: missing required field "expression"']],
  ['expressions are not empty', doc(z, 'filters:', '  a:', '    expression: ""'), ['zone.yaml:4:17: filters.a.expression: must not be empty']],
  ['descriptions hold at most 500 characters', doc(z, 'filters:', '  a:', '    expression: ssl', `    description: ${'d'.repeat(501)}`),
    ['zone.yaml:5:18: filters.a.description: must be at most 500 characters (got 501)']],
  // The limit counts characters (code points), as the schema does; so does the count reported.
  ['descriptions count characters, not UTF-16 units', doc(z, 'filters:', '  a:', '    expression: ssl', `    description: ${'😀'.repeat(501)}`),
    ['zone.yaml:5:18: filters.a.description: must be at most 500 characters (got 501)']],
  ['paused is a boolean', doc(z, 'filters:', '  a:', '    expression: ssl', '    paused: yes'),
    ['zone.yaml:5:13: filters.a.paused: must be true or false (got "yes")']],
  ['unknown filter field, with a suggestion', doc(z, 'filters:', '  a:', '    expresion: ssl'),
    ['zone.yaml:3:3: filters.a: missing required field "expression"', 'zone.yaml:4:5: filters.a.expresion: unknown field (did you mean "expression"?)']],
  ['renamed_from is a key', doc(z, 'filters:', '  a:', '    expression: ssl', '    renamed_from: "old one"'),
    ['zone.yaml:5:19: filters.a.renamed_from: must start with a letter or digit and contain only letters, digits, `_`, `.` and `-` (got "old one")']],
  // firewall rules
  ['action values (the issue\'s example)', doc(z, 'firewall_rules:', '  block-sqlmap:', '    filter: {expression: ssl}', '    action: blok'),
    ['zone.yaml:5:13: firewall_rules.block-sqlmap.action: must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass (got "blok"; did you mean "block"?)']],
  ['a rule needs an action and a filter', doc(z, 'firewall_rules:', '  r:', '    description: x'),
    ['zone.yaml:3:3: firewall_rules.r: missing required field "action"', 'zone.yaml:3:3: firewall_rules.r: missing required field "filter"']],
  ['filter is a key or an inline filter', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter: 12'),
    ['zone.yaml:5:13: firewall_rules.r.filter: must be a key of filters or an inline filter such as { expression: ... } (got 12)']],
  ['an inline filter needs an expression', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter:', '      description: x'),
    ['zone.yaml:5:5: firewall_rules.r.filter: missing required field "expression"']],
  ['inline filters have no renamed_from', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter:', '      expression: ssl', '      renamed_from: x'),
    ['zone.yaml:7:7: firewall_rules.r.filter.renamed_from: unknown field; expected one of expression, description, paused']],
  ['a filter key follows the key pattern', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter: "-x"'),
    ['zone.yaml:5:13: firewall_rules.r.filter: must start with a letter or digit and contain only letters, digits, `_`, `.` and `-` (got "-x")']],
  ['priority at least 1', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter: {expression: ssl}', '    priority: 0'),
    ['zone.yaml:6:15: firewall_rules.r.priority: must be at least 1 (got 0)']],
  ['priority at most 2147483647', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter: {expression: ssl}', '    priority: 2147483648'),
    ['zone.yaml:6:15: firewall_rules.r.priority: must be at most 2147483647 (got 2147483648)']],
  ['priority is an integer or null', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter: {expression: ssl}', '    priority: 1.5'),
    ['zone.yaml:6:15: firewall_rules.r.priority: must be an integer or null (got 1.5)']],
  ['products only with bypass', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter: {expression: ssl}', '    products: [waf]'),
    ['zone.yaml:6:5: firewall_rules.r.products: is only allowed with action: bypass']],
  ['bypass needs products', doc(z, 'firewall_rules:', '  r:', '    action: bypass', '    filter: {expression: ssl}'),
    ['zone.yaml:3:3: firewall_rules.r: missing required field "products"']],
  ['product values', doc(z, 'firewall_rules:', '  r:', '    action: bypass', '    filter: {expression: ssl}', '    products: [waf, cache]'),
    ['zone.yaml:6:21: firewall_rules.r.products[1]: must be one of zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf (got "cache")']],
  ['products are not repeated', doc(z, 'firewall_rules:', '  r:', '    action: bypass', '    filter: {expression: ssl}', '    products: [waf, waf]'),
    ['zone.yaml:6:5: firewall_rules.r.products: must not repeat "waf" (items 0 and 1 are the same)']],
  ['products is not empty', doc(z, 'firewall_rules:', '  r:', '    action: bypass', '    filter: {expression: ssl}', '    products: []'),
    ['zone.yaml:6:5: firewall_rules.r.products: must have at least 1 item']],
  // managed rules
  ['a managed_rules item needs ruleset (or skip: an exception)', doc(z, 'managed_rules:', '  - enabled: true'),
    ['zone.yaml:3:5: managed_rules[0]: needs `ruleset` (deploy a managed ruleset) or `skip` (a managed-rules exception)']],
  ['ruleset is an alias or an id', doc(z, 'managed_rules:', '  - ruleset: owsap'),
    ['zone.yaml:3:14: managed_rules[0].ruleset: must be a catalog alias (managed, owasp, free, exposed_credentials) or a 32-character hexadecimal ruleset id (got "owsap"; did you mean "owasp"?)']],
  ['a bare true is not an expression', doc(z, 'managed_rules:', '  - ruleset: managed', '    expression: true'),
    ['zone.yaml:4:17: managed_rules[0].expression: must be a string (got true; quote the value to make it a string)']],
  ['managed actions', doc(z, 'managed_rules:', '  - ruleset: managed', '    action: allow'),
    ['zone.yaml:4:13: managed_rules[0].action: must be one of block, challenge, js_challenge, managed_challenge, log (got "allow")']],
  ['paranoia level 1 to 4', doc(z, 'managed_rules:', '  - ruleset: owasp', '    paranoia_level: 5'),
    ['zone.yaml:4:21: managed_rules[0].paranoia_level: must be at most 4 (got 5)']],
  ['paranoia level is OWASP only', doc(z, 'managed_rules:', '  - ruleset: managed', '    paranoia_level: 2'),
    ['zone.yaml:4:21: managed_rules[0].paranoia_level: is only for the OWASP Core Ruleset (ruleset: owasp)']],
  ['score threshold levels', doc(z, 'managed_rules:', '  - ruleset: owasp', '    score_threshold: medum'),
    ['zone.yaml:4:22: managed_rules[0].score_threshold: must be one of low, medium, high (got "medum"; did you mean "medium"?)']],
  ['an empty action_parameters names one field, singular', doc(z, 'custom_rules:', '  r:', '    action: skip', '    expression: ip.src eq 1.2.3.4', '    action_parameters: {}'),
    ['zone.yaml:6:5: custom_rules.r.action_parameters: must have at least 1 field']],
  ['a policy tests file is named as one', doc('zone: example.com', 'defaults:', '  request: {ip: 1.2.3.4}', 'cases:', '  - name: x', '    request: {path: /}', '    expect: {allowed: true}'),
    ['zone.yaml:4:1: cases: this is a policy tests file, not a zone manifest: run `zonewall test MANIFEST --cases FILE` with it']],
  ['score threshold numbers are positive', doc(z, 'managed_rules:', '  - ruleset: owasp', '    score_threshold: 0'),
    ['zone.yaml:4:22: managed_rules[0].score_threshold: must be at least 1 (got 0)']],
  ['score threshold is a level or a number', doc(z, 'managed_rules:', '  - ruleset: owasp', '    score_threshold: [1]'),
    ['zone.yaml:4:5: managed_rules[0].score_threshold: must be low, medium, high or a positive integer score (got a list)']],
  ['score threshold is OWASP only', doc(z, 'managed_rules:', '  - ruleset: free', '    score_threshold: high'),
    ['zone.yaml:4:22: managed_rules[0].score_threshold: is only for the OWASP Core Ruleset (ruleset: owasp)']],
  ['unknown override field', doc(z, 'managed_rules:', '  - ruleset: managed', '    overrides: { rule: [] }'),
    ['zone.yaml:4:18: managed_rules[0].overrides.rule: unknown field (did you mean "rules"?)']],
  ['a category override changes something', doc(z, 'managed_rules:', '  - ruleset: managed', '    overrides:', '      categories:', '        - category: wordpress'),
    ['zone.yaml:6:11: managed_rules[0].overrides.categories[0]: needs action or enabled besides category']],
  ['rule override ids are 32 hex characters', doc(z, 'managed_rules:', '  - ruleset: managed', '    overrides:', '      rules:', '        - { id: "100015", action: log }'),
    ['zone.yaml:6:17: managed_rules[0].overrides.rules[0].id: must be a 32-character hexadecimal rule id (got "100015")']],
  // previous WAF
  ['package keys are aliases or ids', doc(z, 'previous_waf:', '  packages:', '    modsec: { sensitivity: low }'),
    ['zone.yaml:4:5: previous_waf.packages.modsec: key "modsec" must be a package alias (owasp, cloudflare) or a 32-character hexadecimal package id']],
  ['a package setting sets something', doc(z, 'previous_waf:', '  packages:', '    owasp: {}'),
    ['zone.yaml:4:5: previous_waf.packages.owasp: needs sensitivity or action_mode']],
  ['sensitivity values', doc(z, 'previous_waf:', '  packages:', '    owasp: { sensitivity: max }'),
    ['zone.yaml:4:27: previous_waf.packages.owasp.sensitivity: must be one of high, medium, low, off (got "max")']],
  ['group ids are 32 hex characters', doc(z, 'previous_waf:', '  groups:', '    bad-robots: off'),
    ['zone.yaml:4:5: previous_waf.groups.bad-robots: key "bad-robots" must be a 32-character hexadecimal group id']],
  ['group modes are on or off (YAML 1.2: on/off are strings)', doc(z, 'previous_waf:', '  groups:', '    07d700cf30fda7548be94ff01087d0c4: true'),
    ['zone.yaml:4:39: previous_waf.groups.07d700cf30fda7548be94ff01087d0c4: must be one of on, off (got true)']],
  ['rule ids', doc(z, 'previous_waf:', '  rules:', '    "10 00": block'),
    ['zone.yaml:4:5: previous_waf.rules["10 00"]: key "10 00" must be a rule id such as 100048 or WP0025B']],
  ['rule modes', doc(z, 'previous_waf:', '  rules:', '    "100048": deny'),
    ['zone.yaml:4:15: previous_waf.rules.100048: must be one of default, disable, simulate, block, challenge, on, off (got "deny")']],
];

describe('manifest schema rules', () => {
  it.each(cases)('%s', (_rule, text, expected) => {
    expect(issuesOf(text)).toEqual(expected);
  });

  it('reports every schema error of a document at once', () => {
    const text = doc('zone: 12', 'plan: gold', 'firewall_rules:', '  r:', '    action: blok', '    filter: {expression: ssl}');
    expect(issuesOf(text)).toHaveLength(3);
  });
});
