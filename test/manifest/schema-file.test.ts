import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

type Schema = Record<string, unknown>;
const schema = JSON.parse(readFileSync('schemas/zone-manifest.schema.json', 'utf8')) as Schema;
const defs = schema.$defs as Record<string, Schema>;

function describedProperties(node: unknown, where: string, out: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => describedProperties(n, `${where}/${i}`, out));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const s = node as Schema;
  if (s.properties && typeof s.properties === 'object') {
    for (const [name, prop] of Object.entries(s.properties as Record<string, Schema>)) {
      const target = typeof prop.$ref === 'string' ? defs[prop.$ref.replace('#/$defs/', '')] : undefined;
      const negated = 'not' in prop; // `products: { not: {} }` in an `else` only forbids; its help is on the real property
      if (typeof prop.description !== 'string' && typeof target?.description !== 'string' && !negated) out.push(`${where}/properties/${name}`);
    }
  }
  // `if` holds conditions (`action: const bypass`), not properties a user writes.
  for (const [k, v] of Object.entries(s)) if (k !== 'if') describedProperties(v, `${where}/${k}`, out);
}

describe('schemas/zone-manifest.schema.json', () => {
  it('is a valid JSON Schema 2020-12 document', () => {
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('describes every property, so editors show help', () => {
    const missing: string[] = [];
    describedProperties(schema, '#', missing);
    expect(missing).toEqual([]);
    for (const [name, def] of Object.entries(defs)) expect(typeof def.description, name).toBe('string');
  });

  it('closes every object, so typos are errors', () => {
    const open: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      const s = node as Schema;
      if (s.type === 'object' && s.properties !== undefined && s.additionalProperties !== false) open.push(where);
      for (const [k, v] of Object.entries(s)) walk(v, `${where}/${k}`);
    };
    walk(schema, '#');
    expect(open).toEqual([]);
  });
});
