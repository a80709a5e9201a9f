/**
 * The neutral strict-JSON helpers (`src/json-text.ts`) that the readers of files a user gives share:
 * the first key written twice in one object (JSON.parse keeps the last, silently), with its place,
 * and the paths and offsets of values.
 */
import { describe, expect, it } from 'vitest';
import { duplicateKeyMessage, firstDuplicateKey, formatJsonPath, jsonErrorPlace, lineColumn, syntaxErrorOffset, type JsonPath } from '../src/json-text.js';

describe('firstDuplicateKey', () => {
  it('finds a key written twice in one object, at the repeat, with the object\'s path', () => {
    expect(firstDuplicateKey('{"a": 1, "a": 2}')).toEqual({ key: 'a', path: [], offset: 9, firstOffset: 1 });
    const text = '{"x": [{"b": 1}, {"c": {"d": [], "d": {}}}]}';
    expect(firstDuplicateKey(text)).toEqual({ key: 'd', path: ['x', 1, 'c'], offset: text.lastIndexOf('"d"'), firstOffset: text.indexOf('"d"') });
  });

  it('reads keys as JSON does: an escaped key is the same key', () => {
    expect(firstDuplicateKey('{"ab": 1, "a\\u0062": 2}')?.key).toBe('ab');
    expect(firstDuplicateKey('{"a\\"": 1, "a\\\\": 2}')).toBeUndefined();
  });

  it('sees no repeat in the same key of different objects, in strings that look like keys, or in values', () => {
    expect(firstDuplicateKey('[{"a": 1}, {"a": 2}]')).toBeUndefined();
    expect(firstDuplicateKey('{"a": {"a": "a"}, "b": "\\"a\\": {\\"a\\", ", "c": ["a", "a"], "d": {}, "e": [], "f": [1, true, null, -2.5e3]}')).toBeUndefined();
    expect(firstDuplicateKey('{"a": {}, "b": 1, "c": [[]], "d": 2}')).toBeUndefined();
    expect(firstDuplicateKey('"a"')).toBeUndefined();
  });

  it('gives each value\'s path and offset', () => {
    const seen: [JsonPath, number][] = [];
    const text = '{"a": [1, {"b": "x"}], "c": null}';
    firstDuplicateKey(text, (path, offset) => seen.push([path.slice(), offset]));
    expect(seen).toEqual([[[], 0], [['a'], 6], [['a', 0], 7], [['a', 1], 10], [['a', 1, 'b'], 16], [['c'], 28]]);
  });
});

describe('messages', () => {
  it('formats paths and the one line refusing a repeat', () => {
    expect(formatJsonPath(['credentials', 0, 'zones'])).toBe('credentials[0].zones');
    expect(formatJsonPath([0], 'credentials')).toBe('credentials[0]');
    expect(formatJsonPath(['a b', 2])).toBe('["a b"][2]');
    const text = '{\n  "free": {},\n  "free": {}\n}';
    expect(duplicateKeyMessage('l.json', text, firstDuplicateKey(text)!)).toBe('l.json:3:3: the top-level object has "free" twice (JSON keeps only the last, silently): keep one');
  });

  it('places offsets and JSON.parse errors by line and column, quoting nothing', () => {
    expect(lineColumn('ab\ncd\n', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('ab', 0)).toEqual({ line: 1, column: 1 });
    expect(jsonErrorPlace('', new SyntaxError('Unexpected end of JSON input'))).toBe(' (the file is empty)');
    expect(jsonErrorPlace('{\n"a":,', new SyntaxError('Unexpected token in JSON at position 6'))).toBe(' at line 2, column 5');
  });
});

describe('syntaxErrorOffset', () => {
  // V8 names no position for an unexpected token ("Unexpected token 'n', "{ ... }" is not valid
  // JSON": the text quoted, newlines included), so a file's error said only "is not valid JSON".
  const broken = ['{"a": nope}', '{"a": "\\x"}', '{"a": 1,}', '[1, 2', '{"a" 1}', '{"a": "x\\u00zz"}', '{"a": -}', '{"a": 01}', '{"a": 1.}', '[1] 2', '{"a": "b\n"}', '{a: 1}', '[tru]', '{"a": 1e}', ''];
  it('finds where V8 says, when V8 says', () => {
    for (const text of broken) {
      let message = '';
      try { JSON.parse(text); } catch (err) { message = (err as Error).message; }
      expect(message, text).not.toBe('');
      const v8 = /position (\d+)/.exec(message);
      if (v8 !== null) expect(syntaxErrorOffset(text), text).toBe(Number(v8[1]));
      else expect(syntaxErrorOffset(text), text).toBeDefined();
    }
  });

  it('points at the token V8 does not place, and finds nothing wrong in JSON', () => {
    expect(syntaxErrorOffset('{\n  "free": nope\n}')).toBe(12);
    expect(jsonErrorPlace('{\n  "free": nope\n}', new SyntaxError('Unexpected token \'o\', "{ "free": nope }" is not valid JSON'))).toBe(' at line 2, column 11');
    for (const text of ['{"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n"], "b": {}}', ' [] ', '"x"', '0']) expect(syntaxErrorOffset(text), text).toBeUndefined();
  });
});

