import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keywordAt, KeywordTable } from '../../src/expr/lex.js';

const spellings: Array<[string, string]> = [
  ['in', 'in'], ['eq', 'eq'], ['==', 'eq'], ['ne', 'ne'], ['!=', 'ne'], ['ge', 'ge'], ['>=', 'ge'], ['gt', 'gt'],
  ['>', 'gt'], ['&', 'bitwise_and'], ['bitwise_and', 'bitwise_and'], ['~', 'matches'], ['matches', 'matches'],
  ['strict wildcard', 'strict wildcard'], ['or', 'or'], ['||', 'or'], ['&&', 'and'],
];

/** What `KeywordTable.at` replaces: every spelling tried in order with `keywordAt`. */
function scan(src: string, pos: number): string | undefined {
  return spellings.find(([text]) => keywordAt(src, pos, text))?.[0];
}

describe('KeywordTable', () => {
  const table = new KeywordTable(spellings);

  it.each([
    ['eq 1', 0, 'eq'], ['equals', 0, undefined], ['>= 1', 0, '>='], ['>1', 0, '>'], ['&& x', 0, '&'], ['a in{', 2, 'in'],
    ['strict wildcard "x"', 0, 'strict wildcard'], ['strict', 0, undefined], ['', 0, undefined], ['or', 2, undefined],
  ])('%j at %d', (src, pos, expected) => {
    expect(table.at(src, pos)?.text).toBe(expected);
  });

  it('finds what a scan of every spelling in order finds', () => {
    const unit = fc.constantFrom('e', 'q', 'i', 'n', '=', '>', '&', '|', 'o', 'r', ' ', 'x', '_', '1', 'g', 't', '~');
    fc.assert(fc.property(fc.string({ unit, maxLength: 8 }), fc.nat(8), (src, pos) => {
      expect(table.at(src, pos)?.text).toBe(scan(src, pos));
    }), { numRuns: 20_000 });
  });
});
