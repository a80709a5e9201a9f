import { describe, expect, it } from 'vitest';
import {
  FIELDS, FUNCTIONS, PHASES, fieldNames, fieldType, functionNames, getField, parse, parseTypeName, typeName, type Type,
} from '../../src/expr/index.js';

// A valid comparison for a value of type `t`: index containers down to a scalar.
function comparisonFor(expr: string, t: Type): string {
  switch (t.kind) {
    case 'Bool': return expr;
    case 'Int': return `${expr} eq 1`;
    case 'Ip': return `${expr} eq 192.0.2.1`;
    case 'Bytes': return `${expr} eq "x"`;
    case 'Array': return comparisonFor(`${expr}[0]`, t.of);
    case 'Map': return comparisonFor(`${expr}["k"]`, t.of);
  }
}

describe('field catalog', () => {
  it('holds the reference fields (about 170) with their types', () => {
    expect(FIELDS.size).toBeGreaterThanOrEqual(170);
    const expected: Record<string, string> = {
      'http.host': 'Bytes', 'http.request.uri.path': 'Bytes', 'ip.src': 'Ip', 'ip.src.asnum': 'Int', ssl: 'Bool',
      'http.request.headers': 'Map<Array<Bytes>>', 'http.request.headers.names': 'Array<Bytes>',
      'cf.bot_management.detection_ids': 'Array<Int>', 'http.request.body.multipart.names': 'Array<Array<Bytes>>',
      'http.request.jwt.claims.iat.sec': 'Map<Array<Int>>', 'cf.llm.prompt.custom_topic_categories': 'Map<Int>',
      'cf.response.1xxx_code': 'Int', 'cf.edge.server_ip': 'Ip', 'http.request.cookies': 'Map<Array<Bytes>>',
    };
    for (const [name, type] of Object.entries(expected)) expect(typeName(fieldType(name)!), name).toBe(type);
    expect(fieldType('nope')).toBeUndefined();
  });

  it('marks deprecated aliases and resolves them to the same type', () => {
    expect(getField('ip.geoip.asnum')).toMatchObject({ aliasOf: 'ip.src.asnum' });
    expect(fieldType('ip.geoip.country')).toEqual(fieldType('ip.src.country'));
  });

  it('lists names sorted, and every field parses in at least one phase', () => {
    const names = fieldNames();
    expect(names).toEqual([...names].sort());
    for (const name of names) {
      const def = FIELDS.get(name)!;
      const phase = def.phases?.[0] ?? PHASES[0];
      const source = comparisonFor(name, def.type);
      expect(() => parse(source, { phase }), source).not.toThrow();
    }
  });

  it('round-trips type names', () => {
    for (const def of FIELDS.values()) expect(parseTypeName(typeName(def.type))).toEqual(def.type);
  });
});

describe('function catalog', () => {
  it('holds the reference functions', () => {
    expect(functionNames()).toEqual([
      'all', 'any', 'cidr', 'cidr6', 'concat', 'decode_base64', 'encode_base64', 'ends_with', 'is_timed_hmac_valid_v0', 'join',
      'len', 'lookup_json_integer', 'lookup_json_string', 'lower', 'regex_replace', 'remove_bytes', 'remove_query_args', 'sha256',
      'split', 'starts_with', 'substring', 'to_string', 'upper', 'url_decode', 'uuidv4', 'wildcard_replace',
    ]);
    expect(FUNCTIONS.get('concat')).toMatchObject({ minArgs: 2, maxArgs: Infinity });
  });
});
