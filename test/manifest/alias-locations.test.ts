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
