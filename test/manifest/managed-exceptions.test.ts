/**
 * Managed-rules exceptions in `managed_rules` (items with `skip`): the forms accepted and normalised
 * into `managedExceptions` with their place among the deployments, and every refusal with its
 * position: an unknown ruleset alias or rule id (with "did you mean"), an exception that skips
 * nothing, one placed after the deployment it names, and the fields of the other form.
 */
import { describe, expect, it } from 'vitest';
import { managedEntrypointRules, validateManifestText } from '../../src/manifest/index.js';
import { doc, issuesOf } from './helpers/issues.js';

const z = 'zone: example.com';
/** The OWASP rule 942100 (SQLi) of the catalog, and a Cloudflare Managed Ruleset rule. */
const OwaspRule = 'a6be45d4905042b9964ff81dc12e41d2';
const ManagedRule = '5f6744fa026a4638bda5b3d7d5e015dd';

describe('managed_rules exceptions: accepted forms', () => {
  it('normalises the three skip forms, resolving aliases, and keeps their place among the deployments', () => {
    const text = doc(z, 'managed_rules:',
      '  - ref: office',
      '    skip: current',
      '    expression: ip.src in {198.51.100.0/24}',
      '    description: the office skips the WAF',
      '  - ref: api-uploads',
      '    skip: { rulesets: [owasp] }',
      '    expression: http.request.uri.path eq "/api/upload"',
      '    logging: { enabled: false }',
      '  - ruleset: managed',
      '  - ref: search-sqli',
      '    skip:',
      '      rules:',
      `        owasp: [${OwaspRule}]`,
      '    expression: http.request.uri.path eq "/search"',
      '    enabled: false',
      '  - ruleset: owasp');
    const result = validateManifestText(text, 'zone.yaml', {});
    expect(result.issues).toEqual([]);
    const desired = result.zone!;
    expect(desired.managedRules!.map((m) => m.ref)).toEqual(['managed', 'owasp']);
    expect(desired.managedExceptions!.map(({ ref, skip, enabled, after, logging }) => ({ ref, skip, enabled, after, logging }))).toEqual([
      { ref: 'office', skip: { ruleset: 'current' }, enabled: true, after: 0, logging: undefined },
      { ref: 'api-uploads', skip: { rulesets: ['4814384a9e5d4991b9815dcfc25d2f1f'] }, enabled: true, after: 0, logging: { enabled: false } },
      { ref: 'search-sqli', skip: { rules: { '4814384a9e5d4991b9815dcfc25d2f1f': [OwaspRule] } }, enabled: false, after: 1, logging: undefined },
    ]);
    expect(managedEntrypointRules(desired)!.map((e) => (e.kind === 'execute' ? e.ruleset.ref : e.exception.ref)))
      .toEqual(['office', 'api-uploads', 'managed', 'search-sqli', 'owasp']);
  });

  it('leaves managedExceptions empty (not undefined) for a section without exceptions', () => {
    const desired = validateManifestText(doc(z, 'managed_rules:', '  - ruleset: managed'), 'zone.yaml', {}).zone!;
    expect(desired.managedExceptions).toEqual([]);
  });
});

describe('managed_rules exceptions: refusals with positions', () => {
  it.each<[string, string[], string[]]>([
    ['an unknown ruleset alias, with did you mean', ['  - ref: x', '    skip: { rulesets: [manged] }', '    expression: "true"', '  - ruleset: managed'],
      ['zone.yaml:4:24: managed_rules[0].skip.rulesets[0]: manged is not a managed ruleset of the catalog; did you mean "managed"? (aliases: managed, owasp, free, exposed_credentials, or a ruleset id)']],
    ['a rule id the ruleset does not have, with did you mean', ['  - ref: x', '    skip:', '      rules:', `        owasp: [${OwaspRule.slice(0, 31)}3]`, '    expression: "true"', '  - ruleset: owasp'],
      [`zone.yaml:6:17: managed_rules[0].skip.rules.owasp[0]: Cloudflare OWASP Core Ruleset has no rule ${OwaspRule.slice(0, 31)}3; did you mean "${OwaspRule}"?`]],
    ['a managed rule under the owasp ruleset', ['  - ref: x', '    skip:', '      rules:', `        owasp: [${ManagedRule}]`, '    expression: "true"', '  - ruleset: owasp'],
      [`zone.yaml:6:17: managed_rules[0].skip.rules.owasp[0]: Cloudflare OWASP Core Ruleset has no rule ${ManagedRule}`]],
    ['an exception after the deployment it names', ['  - ruleset: managed', '  - ref: late', '    skip: { rulesets: [managed] }', '    expression: "true"'],
      ['zone.yaml:5:24: managed_rules[1].skip.rulesets[0]: skips managed, but managed_rules[0] (line 3) deploys it before this exception, which skips only the entries after it: move the exception above it']],
    ['a rules exception after the deployment it names', ['  - ruleset: owasp', '  - ref: late', '    skip:', '      rules:', `        owasp: [${OwaspRule}]`, '    expression: "true"'],
      ['zone.yaml:7:9: managed_rules[1].skip.rules.owasp: skips owasp, but managed_rules[0] (line 3) deploys it before this exception, which skips only the entries after it: move the exception above it']],
    ['current with nothing after it', ['  - ruleset: managed', '  - ref: last', '    skip: current', '    expression: "true"'],
      ['zone.yaml:5:11: managed_rules[1].skip: skips nothing: `current` skips the entries after the exception, and no entry after it deploys a managed ruleset']],
    ['a ruleset no entry deploys', ['  - ref: x', '    skip: { rulesets: [free] }', '    expression: "true"', '  - ruleset: managed'],
      ['zone.yaml:4:24: managed_rules[0].skip.rulesets[0]: skips free, which no entry of managed_rules deploys: the exception would skip nothing']],
    ['an empty rulesets list', ['  - ref: x', '    skip: { rulesets: [] }', '    expression: "true"', '  - ruleset: managed'],
      ['zone.yaml:4:23: managed_rules[0].skip.rulesets: skips nothing: name at least one managed ruleset (or remove the exception)']],
    ['an empty rule list', ['  - ref: x', '    skip: { rules: { managed: [] } }', '    expression: "true"', '  - ruleset: managed'],
      ['zone.yaml:4:31: managed_rules[0].skip.rules.managed: skips nothing of managed: list the ids of the rules to skip']],
    ['an exception without ref or expression', ['  - skip: current', '  - ruleset: managed'],
      ['zone.yaml:3:5: managed_rules[0].skip: an exception needs a `ref` (plans match it to the zone\'s skip rule by it): add e.g. `ref: office-sqlmap`',
        'zone.yaml:3:5: managed_rules[0].skip: an exception needs an `expression`: the requests it lets past the skipped managed rules ("true" for all of them)']],
    ['deployment fields on an exception', ['  - ref: x', '    skip: current', '    expression: "true"', '    overrides: { action: log }', '  - ruleset: managed'],
      ['zone.yaml:6:5: managed_rules[0].overrides: is for deployments (items with `ruleset`); an exception says what it skips in `skip`, nothing else']],
    ['neither ruleset nor skip', ['  - ref: x', '    expression: "true"'],
      ['zone.yaml:3:5: managed_rules[0]: needs `ruleset` (deploy a managed ruleset) or `skip` (a managed-rules exception)']],
    ['logging on a deployment', ['  - ruleset: managed', '    logging: { enabled: false }'],
      ['zone.yaml:4:5: managed_rules[0].logging: is for exceptions only (items with `skip`); a deployment is logged by its rules']],
    ['a ruleset named twice (an alias and its id)', ['  - ref: x', '    skip: { rulesets: [managed, efb7b8c949ac4650a09736fc376e9aee] }', '    expression: "true"', '  - ruleset: managed'],
      ['zone.yaml:4:33: managed_rules[0].skip.rulesets[1]: names efb7b8c949ac4650a09736fc376e9aee a second time (managed_rules[0].skip.rulesets[0] names it already); list each ruleset once']],
    ['one ruleset under two keys of rules', ['  - ref: x', '    skip:', '      rules:', `        owasp: [${OwaspRule}]`, `        4814384a9e5d4991b9815dcfc25d2f1f: [${OwaspRule}]`, '    expression: "true"', '  - ruleset: owasp'],
      ['zone.yaml:7:9: managed_rules[0].skip.rules.4814384a9e5d4991b9815dcfc25d2f1f: names the ruleset owasp names already (4814384a9e5d4991b9815dcfc25d2f1f); merge the two lists under one key']],
    ['a rule id listed twice', ['  - ref: x', '    skip:', '      rules:', `        owasp: [${OwaspRule}, ${OwaspRule}]`, '    expression: "true"', '  - ruleset: owasp'],
      [`zone.yaml:6:51: managed_rules[0].skip.rules.owasp[1]: rule ${OwaspRule} is listed twice (also at managed_rules[0].skip.rules.owasp[0]); list each rule once`]],
    ['a skip that is neither current nor a map of one form', ['  - ref: x', '    skip: { rulesets: [managed], rules: {} }', '    expression: "true"', '  - ruleset: managed'],
      ['zone.yaml:4:5: managed_rules[0].skip: must have exactly one of `rulesets` and `rules`']],
  ])('%s', (_name, lines, expected) => {
    expect(issuesOf(doc(z, 'managed_rules:', ...lines))).toEqual(expected);
  });
});
