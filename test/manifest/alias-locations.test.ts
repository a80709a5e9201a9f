/**
 * Errors in values reached through a YAML alias (`*name`) pointed at the anchor's content, so two
 * rules repeating one anchored map got two errors at the same line, neither at the rule. They now
 * point at the alias use (file:line:column of `*name`) and say where the value itself is.
 */
import { describe, expect, it } from 'vitest';
import { validateManifestText } from '../../src/manifest/index.js';

const at = (text: string) => validateManifestText(text, 'z.yaml').issues.map((i) => `${i.line}:${i.column}: ${i.path}: ${i.message}`);

describe('errors through an alias', () => {
  it('a schema error inside an aliased map is at each alias, with the value\'s place', () => {
    const text = 'zone: a.example.com\nplan: business\ncustom_rules:\n  a: &act\n    action: blok\n    expression: http.host eq "x"\n  b: *act\n';
    expect(at(text)).toEqual([
      '5:13: custom_rules.a.action: must be one of block, challenge, js_challenge, managed_challenge, log, skip (got "blok"; did you mean "block"?)',
      '7:6: custom_rules.b.action: must be one of block, challenge, js_challenge, managed_challenge, log, skip (got "blok"; did you mean "block"?) (through the alias *act: the value is at line 5, column 13)',
    ]);
  });

  it('an expression error through a scalar alias is at the alias', () => {
    const text = 'zone: a.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: &e http.hostt eq "y"\n  b:\n    action: log\n    expression: *e\n';
    expect(at(text)).toEqual([
      '6:20: custom_rules.a.expression: unknown identifier; did you mean "http.host"?',
      '9:17: custom_rules.b.expression: unknown identifier; did you mean "http.host"? (through the alias *e: the value is at line 6, column 20)',
    ]);
  });

  it('a key that is an alias (*name:) is located at the alias, not at the anchored scalar', () => {
    // The key's position was the anchor's value: a key error pointed into another rule's expression.
    const text = 'zone: a.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: &e "http.hostt eq 1"\n  *e : {action: block, expression: ssl}\n';
    expect(at(text)).toEqual([
      '6:21: custom_rules.a.expression: unknown identifier; did you mean "http.host"?',
      '7:3: custom_rules["http.hostt eq 1"]: key "http.hostt eq 1" must start with a letter or digit and contain only letters, digits, `_`, `.` and `-`',
    ]);
    const valid = 'zone: a.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: &k ssl\n  *k : {action: challenge, expression: ssl}\n';
    const rule = validateManifestText(valid, 'z.yaml').zone!.customRules!.find((r) => r.ref === 'ssl')!;
    expect(rule.location).toEqual({ file: 'z.yaml', line: 7, column: 3 });
  });

  it('an issue at the key of an entry whose value is an alias stays at the key', () => {
    const text = 'zone: a.example.com\nplan: business\nx: &m {action: block}\ncustom_rules:\n  a: *m\n';
    expect(at(text)).toContain('5:3: custom_rules.a: missing required field "expression"');
  });
});

describe('errors through an alias in a cases file', () => {
  it('a request field of an aliased request is at each alias, with the value\'s place', async () => {
    const { parseCasesText } = await import('../../src/policy/load.js');
    const text = '- name: one\n  request: &r { path: /, ip: 999.1.1.1 }\n  expect: { allowed: true }\n- name: two\n  request: *r\n  expect: { allowed: true }\n';
    const issues = parseCasesText(text, 'z.tests.yaml').issues.map((i) => `${i.line}:${i.column}: ${i.path}: ${i.message}`);
    expect(issues).toEqual([
      '2:30: [0].request.ip: must be an IPv4 or IPv6 address (got "999.1.1.1")',
      '5:12: [1].request.ip: must be an IPv4 or IPv6 address (got "999.1.1.1") (through the alias *r: the value is at line 2, column 30)',
    ]);
  });
});

/**
 * Locations made during normalisation (`location`, `fieldLocations` of the desired objects: plan
 * findings, the tier check after the schema check, lint) pointed at the anchor for a value reached
 * through an alias; they now point at the alias and say where the value is, as validation does.
 * Only the `yaml` reader reads anchors and aliases (the fast reader gives up on them: checked here),
 * so these documents have one reader.
 */
describe('normalisation locations through an alias', () => {
  const issues = (text: string) => validateManifestText(text, 'z.yaml').issues.map((i) => `${i.line}:${i.column}: ${i.path}: ${i.message}`);

  it('the fast reader leaves documents with aliases to the yaml reader', async () => {
    const { readYamlFast } = await import('../../src/manifest/fast-reader.js');
    const { LineIndex } = await import('../../src/manifest/source.js');
    const text = 'zone: a.example.com\ncustom_rules:\n  a: &r {action: block, expression: ssl}\n  b: *r\n';
    expect(readYamlFast(text, new LineIndex(text))).toBeUndefined();
  });

  it('a tier error about a scalar alias (the matches caret) is at the alias, with the value\'s place', () => {
    const text = 'zone: a.example.com\nplan: pro\ncustom_rules:\n  a:\n    action: block\n    expression: &e http.host matches "x"\n  b:\n    action: block\n    expression: *e\n';
    expect(issues(text)).toEqual([
      '6:30: custom_rules.a.expression: the matches operator needs a Business or Enterprise plan (the zone is on the pro plan)',
      '9:17: custom_rules.b.expression: the matches operator needs a Business or Enterprise plan (the zone is on the pro plan) (through the alias *e: the value is at line 6, column 30)',
    ]);
  });

  it('a tier error about a field of an aliased map is at the alias; the entry\'s own location stays at its key', () => {
    const text = 'zone: a.example.com\nplan: pro\nfilters:\n  f: {expression: http.host eq "x"}\n  g: {expression: http.host eq "y"}\n'
      + 'firewall_rules:\n  a: &r\n    action: log\n    filter: f\n  b: *r\n';
    expect(issues(text)).toEqual([
      '8:13: firewall_rules.a.action: log needs an Enterprise plan (the zone is on the pro plan)',
      '10:6: firewall_rules.b.action: log needs an Enterprise plan (the zone is on the pro plan) (through the alias *r: the value is at line 8, column 13)',
    ]);
    const zone = validateManifestText(text.replace('plan: pro', 'plan: enterprise'), 'z.yaml').zone!;
    const b = zone.firewallRules.find((r) => r.ref === 'b')!;
    expect(b.location).toEqual({ file: 'z.yaml', line: 10, column: 3 });
    expect(b.fieldLocations).toEqual({
      action: { file: 'z.yaml', line: 10, column: 6, alias: { name: '*r', line: 8, column: 13 } },
      filter: { file: 'z.yaml', line: 10, column: 6, alias: { name: '*r', line: 9, column: 13 } },
    });
    expect(zone.firewallRules.find((r) => r.ref === 'a')!.fieldLocations?.action).toEqual({ file: 'z.yaml', line: 8, column: 13 });
  });

  it('a lint finding about an aliased expression is at the alias', async () => {
    const { lintZone } = await import('../../src/manifest/index.js');
    const text = 'zone: a.example.com\nplan: business\ncustom_rules:\n  a:\n    action: block\n    expression: &e http.host eq "x" or http.host eq "x"\n  b:\n    action: block\n    expression: *e\n';
    const found = lintZone(validateManifestText(text, 'z.yaml').zone!).filter((f) => f.rule.id === 'ZW104').map((f) => `${f.line}:${f.column}: ${f.path}: ${f.message}`);
    expect(found).toEqual([
      '6:20: custom_rules.a.expression: `http.host eq "x"` appears twice in one or: one of them does nothing',
      '9:17: custom_rules.b.expression: `http.host eq "x"` appears twice in one or: one of them does nothing (through the alias *e: the value is at line 6, column 20)',
    ]);
  });

  it('a plan finding whose location is an alias says where the value is', async () => {
    const { renderFindings } = await import('../../src/plan/render/text.js');
    const lines = renderFindings([{ level: 'warning', code: 'duplicate-desired-expression', message: 'filters "a" and "b" have the same expression',
      location: { file: 'z.yaml', line: 10, column: 6, alias: { name: '*r', line: 8, column: 13 } } }]);
    expect(lines[1]).toBe('  WARNING duplicate-desired-expression: filters "a" and "b" have the same expression (z.yaml:10:6) (through the alias *r: the value is at line 8, column 13)');
  });

  it('a managed ruleset\'s field through a scalar alias is at the alias', () => {
    const text = 'zone: a.example.com\nplan: business\nmanaged_rules:\n  - ruleset: managed\n    expression: &e http.host eq "a"\n  - ruleset: owasp\n    expression: *e\n';
    const zone = validateManifestText(text, 'z.yaml').zone!;
    expect(zone.managedRules?.map((m) => m.fieldLocations?.expression)).toEqual([
      { file: 'z.yaml', line: 5, column: 20 },
      { file: 'z.yaml', line: 7, column: 17, alias: { name: '*e', line: 5, column: 20 } },
    ]);
  });
});
