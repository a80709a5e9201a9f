/**
 * The manifest schema's fast path: a second validator, compiled ahead of time beside the full one
 * (`scripts/build-cli.mjs`), that only answers "valid or not". Most manifests are valid, and the full
 * validator (all errors, verbose) builds an error object with its path for every entry even then:
 * each `$ref`'d entry is a call with an options object and a path string, and the 2020-12 class
 * tracks evaluated properties, so an `anyOf` tries every branch and keeps the failures. The fast
 * one is compiled from the same schema with every `$ref` inlined and the annotations dropped, by
 * ajv's draft-07 class (no evaluated-properties tracking), stopping at the first error; when it
 * says no, the full validator runs and reports (`schema.ts`), so messages never depend on it.
 * Inlining keeps what the schema accepts: the schema has no recursion, and only keywords whose
 * meaning is the same in draft-07 and 2020-12 are allowed here (any other fails the build).
 */
import { createRequire } from 'node:module';
import type { Ajv, AnySchema, AnySchemaObject, Options } from 'ajv/dist/ajv.js';

/** Keywords that only annotate: no effect on what is valid (ajv's `useDefaults` is off). */
const Annotations = new Set(['description', 'title', 'default', 'examples', 'errorMessage', 'patternErrorMessage', 'tsType', '$comment',
  'deprecated', 'readOnly', 'writeOnly', '$schema', '$id', '$defs']);
/** Keywords whose value is a map of schemas, one schema, or a list of schemas. */
const SchemaMaps = new Set(['properties', 'patternProperties']);
const OneSchema = new Set(['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains']);
const SchemaLists = new Set(['allOf', 'anyOf', 'oneOf']);
/** Keywords with plain values that mean the same in both drafts. */
const Plain = new Set(['type', 'enum', 'const', 'required', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties']);

const LocalRef = '#/$defs/';

/**
 * The schema for the fast path: `schema` with its local `$ref`s replaced by what they name and its
 * annotations dropped. Throws on a keyword it does not know to mean the same in draft-07 (`items`
 * as a list, `prefixItems`, `unevaluated*`...), on a `$ref` outside `$defs`, and on recursion.
 */
export function quickManifestSchema(schema: AnySchemaObject): AnySchemaObject {
  const defs = (schema.$defs ?? {}) as Record<string, AnySchema>;
  const inline = (node: AnySchema, within: readonly string[]): AnySchema => {
    if (typeof node === 'boolean') return node;
    const out: AnySchemaObject = {};
    let target: AnySchema | undefined;
    for (const [keyword, value] of Object.entries(node)) {
      if (Annotations.has(keyword)) continue;
      if (keyword === '$ref') target = inlineRef(value, within);
      else if (SchemaMaps.has(keyword)) {
        out[keyword] = Object.fromEntries(Object.entries(value as Record<string, AnySchema>).map(([k, s]) => [k, inline(s, within)]));
      } else if (OneSchema.has(keyword) && !Array.isArray(value)) out[keyword] = inline(value as AnySchema, within);
      else if (SchemaLists.has(keyword)) out[keyword] = (value as AnySchema[]).map((s) => inline(s, within));
      else if (Plain.has(keyword)) out[keyword] = value;
      else throw new Error(`quickManifestSchema: keyword "${keyword}" is not known to mean the same in draft-07; teach schema-quick.ts about it`);
    }
    if (target === undefined) return out;
    // A `$ref` beside other keywords applies both, as `allOf` does.
    return Object.keys(out).length === 0 ? target : { ...out, allOf: [...((out.allOf as AnySchema[] | undefined) ?? []), target] };
  };
  const inlineRef = (ref: unknown, within: readonly string[]): AnySchema => {
    const name = typeof ref === 'string' && ref.startsWith(LocalRef) ? ref.slice(LocalRef.length) : undefined;
    if (name === undefined || !Object.hasOwn(defs, name)) throw new Error(`quickManifestSchema: $ref ${String(ref)} is not one of $defs`);
    if (within.includes(name)) throw new Error(`quickManifestSchema: $ref ${String(ref)} is recursive`);
    return inline(defs[name], [...within, name]);
  };
  return inline(schema, []) as AnySchemaObject;
}

/** The ajv instance of the fast path: draft-07's class, first error only, no messages. */
export function createQuickAjv(extra: Options = {}): Ajv {
  const { Ajv: Draft07 } = createRequire(import.meta.url)('ajv/dist/ajv.js') as typeof import('ajv/dist/ajv.js');
  return new Draft07({ allErrors: false, verbose: false, messages: false, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, ...extra });
}
