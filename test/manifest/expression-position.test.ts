import { describe, expect, it } from 'vitest';
import { mapValueOffset } from '../../src/manifest/expression-position.js';
import { validateManifestText } from '../../src/manifest/index.js';
import { doc } from './helpers/issues.js';

/** 1-based line:column of the `nth` occurrence of `needle` in `text`. */
function posOf(text: string, needle: string, nth = 1): string {
  let at = -1;
  for (let i = 0; i < nth; i++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `${line}:${at - before.lastIndexOf('\n')}`;
}

function firstIssue(text: string): { at: string; path: string; message: string; length?: number } {
  const [issue] = validateManifestText(text, 'zone.yaml').issues;
  return { at: `${issue.line}:${issue.column}`, path: issue.path, message: issue.message, length: issue.length };
}

const z = 'zone: example.com';

describe('expression errors point into the YAML file', () => {
  it.each<[string, string, string, number?]>([
    ['plain scalar', doc(z, 'filters:', '  a:', '    expression: http.host eq "x" and http.hots eq "y"'), 'http.hots'],
    ['flow map', doc(z, 'filters:', '  a: { expression: ssl and http.hots eq "y" }'), 'http.hots'],
    ['single-quoted with doubled quotes before the error', doc(z, 'filters:', '  a:',
      "    expression: 'http.host eq \"it''s\" and http.hots eq \"y\"'"), 'http.hots'],
    ['double-quoted with escaped quotes before the error', doc(z, 'filters:', '  a:',
      '    expression: "http.host eq \\"x\\" and http.hots eq \\"y\\""'), 'http.hots'],
    ['double-quoted with a \\x escape before the error', doc(z, 'filters:', '  a:',
      '    expression: "http.host eq \\"\\x41\\" and http.hots eq 1"'), 'http.hots'],
    ['literal block scalar, second line', doc(z, 'filters:', '  a:', '    expression: |', '      http.host eq "a"',
      '        and http.hots eq "b"'), 'http.hots'],
    ['folded block scalar, second line', doc(z, 'filters:', '  a:', '    expression: >-', '      http.host eq "a"',
      '      and http.hots eq "b"'), 'http.hots'],
    ['multi-line plain scalar', doc(z, 'filters:', '  a:', '    expression: http.host eq "a"', '      or http.hots eq "b"'), 'http.hots'],
    ['multi-line double-quoted scalar with an escaped line break', doc(z, 'filters:', '  a:', '    expression: "http.host eq \\', '      \\"a\\" or http.hots eq 1"'), 'http.hots'],
    ['inline filter of a rule', doc(z, 'firewall_rules:', '  r:', '    action: block', '    filter:', '      expression: ip.src eq 1.2.3'), '1.2.3'],
    ['managed ruleset expression', doc(z, 'managed_rules:', '  - ruleset: managed', '    expression: http.hots eq "x"'), 'http.hots'],
  ])('%s', (_name, text, needle) => {
    const issue = firstIssue(text);
    expect(issue.at).toBe(posOf(text, needle));
    expect(issue.message).toMatch(/^(unknown identifier|couldn't parse address)/);
  });

  it('underlines the offending token', () => {
    const text = doc(z, 'filters:', '  a:', '    expression: ssl and http.hots eq "y"');
    expect(firstIssue(text).length).toBe('http.hots'.length);
  });

  it('points just after the expression when it ends too early', () => {
    const text = doc(z, 'filters:', '  a:', '    expression: http.host eq');
    const issue = firstIssue(text);
    expect(issue.path).toBe('filters.a.expression');
    const end = text.indexOf('http.host eq') + 'http.host eq'.length;
    const line = text.slice(0, end).split('\n').length;
    expect(issue.at.startsWith(`${line}:`)).toBe(true);
    expect(Number(issue.at.split(':')[1])).toBeGreaterThanOrEqual(end - text.lastIndexOf('\n', end - 1) - 1);
  });
});

describe('mapValueOffset', () => {
  const text = 'k: "a\\"b c"\n';
  it('maps characters after an escape to the source', () => {
    // value a"b c: offset 4 is "c", written at index 9 of the file
    expect(mapValueOffset(text, { start: 3, end: 11, style: 'double' }, 'a"b c', 4)).toBe(9);
  });
  it('maps an escaped character to the start of its escape', () => {
    expect(mapValueOffset(text, { start: 3, end: 11, style: 'double' }, 'a"b c', 1)).toBe(5);
  });
  it('falls back to the scalar start when the value does not align with the source', () => {
    expect(mapValueOffset(text, { start: 3, end: 11, style: 'double' }, 'zzz', 1)).toBe(3);
  });
  it('maps the end of the value after its last character', () => {
    expect(mapValueOffset('k: abc\n', { start: 3, end: 6, style: 'plain' }, 'abc', 3)).toBe(6);
  });
});
