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
 * meaning is the same in draft-07 and 2020-12 are allowed here (any other fails the build). The keys
 * of the keyed sections are left out: the fast path checks them itself (`schema-keys.ts`).
 */
import { createRequire } from 'node:module';
import type { Ajv, AnySchema, AnySchemaObject, Options } from 'ajv/dist/ajv.js';
import { Annotations, keyedSections } from './schema-keys.js';

/** Keywords whose value is a map of schemas, one schema, or a list of schemas. */
const SchemaMaps = new Set(['properties', 'patternProperties']);
const OneSchema = new Set(['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains']);
const SchemaLists = new Set(['allOf', 'anyOf', 'oneOf']);
/** Keywords with plain values that mean the same in both drafts. */
const Plain = new Set(['type', 'enum', 'const', 'required', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties']);

const LocalRef = '#/$defs/';

/**
 * The schema for the fast path: `schema` with its local `$ref`s replaced by what they name, its
 * annotations dropped, and without the `propertyNames` of its `keyedSections` (so what it accepts
 * is what the schema accepts only together with `sectionKeysValid`). Throws on a keyword it does not
 * know to mean the same in draft-07 (`items` as a list, `prefixItems`, `unevaluated*`...), on a
 * `$ref` outside `$defs`, and on recursion.
 */
export function quickManifestSchema(schema: AnySchemaObject): AnySchemaObject {
  return inlined(withoutSectionKeys(schema));
}

/** `schema` without the `propertyNames` of its keyed sections (copies of what changes). */
function withoutSectionKeys(schema: AnySchemaObject): AnySchemaObject {
  const sections = keyedSections(schema);
  if (sections.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, AnySchemaObject>) };
  for (const name of sections) {
    const { propertyNames: _, ...rest } = properties[name];
    properties[name] = rest;
  }
  return { ...schema, properties };
}

function inlined(schema: AnySchemaObject): AnySchemaObject {
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
    withoutIf(out);
    exactMinLength(out);
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

/** Adds `schemas` to the `allOf` of `node`. */
function addAllOf(node: AnySchemaObject, ...schemas: AnySchema[]): void {
  node.allOf = [...((node.allOf as AnySchema[] | undefined) ?? []), ...schemas];
}

/**
 * `node`'s `if`/`then`/`else` as `anyOf`s that pass at their first branch for the usual entry. ajv
 * validates `if` as a composite rule: whenever the condition is false (a firewall rule whose action
 * is not `bypass`: nearly all of them) it pushes an error object and a list for it, then drops
 * them. `else: E` is `A or E` (A the condition), written `anyOf: [E, A]`; `then: T` is `not A or
 * T`, written `anyOf: [not-A, T]` where not-A can be said without a failing test: when the condition
 * is `{required: [p], properties: {p: {const: c}}}` and the node's own `properties.p` is an `enum`,
 * not-A is "p is one of the other members" (p absent passes too; a p outside the enum fails the
 * node anyway). Any other `then` is left to ajv's `if`.
 */
function withoutIf(node: AnySchemaObject): void {
  const cond = node.if as AnySchema | undefined;
  if (cond === undefined) return;
  const yes = node.then as AnySchema | undefined;
  const no = node.else as AnySchema | undefined;
  let notCond: AnySchema | undefined;
  if (yes !== undefined) {
    notCond = otherMembers(node, cond);
    if (notCond === undefined) return;
  }
  const parts: AnySchema[] = [];
  if (yes !== undefined) parts.push({ anyOf: [notCond!, yes] });
  if (no !== undefined) parts.push({ anyOf: [no, cond] });
  delete node.if;
  delete node.then;
  delete node.else;
  if (parts.length > 0) addAllOf(node, ...parts);
}

/** For a condition `{required: [p], properties: {p: {const: c}}}` on a node whose `properties.p` is an `enum`: "p is another member". */
function otherMembers(node: AnySchemaObject, cond: AnySchema): AnySchema | undefined {
  if (typeof cond !== 'object' || Object.keys(cond).length !== 2 || !Array.isArray(cond.required) || cond.required.length !== 1) return undefined;
  const p = cond.required[0] as string;
  const test = (cond.properties as Record<string, AnySchema> | undefined)?.[p];
  if (typeof test !== 'object' || Object.keys(cond.properties as object).length !== 1 || Object.keys(test).length !== 1 || !('const' in test)) return undefined;
  const own = (node.properties as Record<string, AnySchema> | undefined)?.[p];
  const members = typeof own === 'object' ? own.enum : undefined;
  if (!Array.isArray(members) || !members.every((m) => typeof m === 'string') || typeof test.const !== 'string') return undefined;
  return { properties: { [p]: { enum: members.filter((m) => m !== test.const) } } };
}

/**
 * The fast path counts string lengths in UTF-16 units (`unicode: false`: ajv's code point count
 * was ~12 ms over 50 zones), which is never less than the code points the full validator counts.
 * So a `maxLength` is as strict or stricter (a "valid" stays right; a long astral string goes to the
 * full validator, which answers); `minLength` would be looser, except at 0 or 1 (empty or not):
 * a larger one becomes a pattern that counts code points.
 */
function exactMinLength(node: AnySchemaObject): void {
  const min = node.minLength as number | undefined;
  if (min === undefined || min <= 1) return;
  delete node.minLength;
  addAllOf(node, { pattern: `^[\\s\\S]{${min},}$` });
}

/** The ajv instance of the fast path: draft-07's class, first error only, no messages. */
export function createQuickAjv(extra: Options = {}): Ajv {
  const { Ajv: Draft07 } = createRequire(import.meta.url)('ajv/dist/ajv.js') as typeof import('ajv/dist/ajv.js');
  // ajv calls `unicode` deprecated (it still honours it): that one warning is not printed at every build.
  const logger = { log: console.log, error: console.error, warn: (...args: unknown[]) => { if (!/option unicode/.test(String(args[0]))) console.warn(...args); } };
  return new Draft07({
    allErrors: false, verbose: false, messages: false, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, unicode: false, logger,
    ...extra,
  });
}
