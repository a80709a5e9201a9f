/**
 * The wording of schema errors. One function per concern: an ajv error becomes a sentence that says
 * what is expected and what was found (`must be one of block, ... (got "blok"; did you mean "block"?)`), unknown fields get
 * a "did you mean", and keys (which become the service's `ref`) get their own explanation.
 */
import type { AnySchemaObject, ErrorObject } from 'ajv/dist/2020.js';
import { closest } from './suggest.js';

const typeWords: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a map',
  array: 'a list',
  null: 'null',
};

/** A value as it appears in messages: strings quoted, long values cut. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'a map';
  const text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function schemaText(schema: AnySchemaObject | undefined, key: string): string | undefined {
  const v = schema?.[key];
  return typeof v === 'string' ? v : undefined;
}

function describeType(e: ErrorObject): string {
  const types = ([] as string[]).concat(e.params.type as string | string[]);
  const words = types.map((t) => typeWords[t] ?? t).join(' or ');
  const quoteHint = types.includes('string') && (typeof e.data === 'number' || typeof e.data === 'boolean')
    ? '; quote the value to make it a string' : '';
  return `must be ${words} (got ${show(e.data)}${quoteHint})`;
}

/** What a `<<:` key gets: YAML 1.2 (what zonewall reads) has no merge keys, so it is a key like any other. */
export const MergeKeyMessage = 'a YAML merge key (<<) does not merge here: zonewall reads YAML 1.2, which has none; write the fields out (an alias *name can repeat a whole map)';

function describeUnknownField(e: ErrorObject): string {
  const field = String(e.params.additionalProperty);
  if (field === '<<') return MergeKeyMessage;
  const known = Object.keys((e.parentSchema?.properties ?? {}) as object).filter((k) => k !== '$schema');
  const guess = closest(field, known);
  if (guess !== undefined) return `unknown field (did you mean "${guess}"?)`;
  return known.length > 0 ? `unknown field; expected one of ${known.join(', ')}` : 'unknown field';
}

/** `; did you mean "owasp"?` when a misspelt string is close to one of `values`, else nothing. */
function guessHint(values: readonly unknown[], got: unknown): string {
  const guess = typeof got === 'string' ? closest(got, values.filter((v): v is string => typeof v === 'string')) : undefined;
  return guess === undefined ? '' : `; did you mean "${guess}"?`;
}

/** An enum's values, and the closest of them to a misspelt string. */
function describeEnum(allowed: readonly unknown[], got: unknown): string {
  return `must be one of ${allowed.join(', ')} (got ${show(got)}${guessHint(allowed, got)})`;
}

/** The `enum` values of an `anyOf`'s branches (a ruleset is a catalog alias or an id). */
function branchValues(branches: unknown): unknown[] {
  return Array.isArray(branches) ? branches.flatMap((b) => (Array.isArray((b as { enum?: unknown }).enum) ? (b as { enum: unknown[] }).enum : [])) : [];
}

/** A sentence for one ajv error (paths and positions are added by the caller). */
export function describeError(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const message = schemaText(e.parentSchema, 'errorMessage');
  switch (e.keyword) {
    case 'type': return describeType(e);
    case 'enum': return describeEnum(p.allowedValues as unknown[], e.data);
    case 'const': return `must be ${show(p.allowedValue)} (got ${show(e.data)})`;
    case 'required': return `missing required field "${String(p.missingProperty)}"`;
    case 'additionalProperties': return describeUnknownField(e);
    // Characters as the schema counts them: code points, not UTF-16 units (an emoji is one).
    case 'maxLength': return `must be at most ${String(p.limit)} characters (got ${String(codePoints(e.data as string))})`;
    case 'minLength': return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'pattern':
      return `${schemaText(e.parentSchema, 'patternErrorMessage') ?? `must match ${String(p.pattern)}`} (got ${show(e.data)})`;
    case 'minimum': return `must be at least ${String(p.limit)} (got ${show(e.data)})`;
    case 'maximum': return `must be at most ${String(p.limit)} (got ${show(e.data)})`;
    case 'minItems': return `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'uniqueItems':
      return `must not repeat ${show((e.data as unknown[])[p.i as number])} (items ${String(Math.min(p.i as number, p.j as number))} `
        + `and ${String(Math.max(p.i as number, p.j as number))} are the same)`;
    case 'minProperties': return message ?? `must have at least ${String(p.limit)} field${p.limit === 1 ? '' : 's'}`;
    case 'maxProperties': return message ?? `must have at most ${String(p.limit)} field${p.limit === 1 ? '' : 's'}`;
    case 'not': return message ?? 'is not allowed here';
    case 'anyOf':
    case 'oneOf': return `${message ?? 'does not match any allowed form'} (got ${show(e.data)}${guessHint(branchValues(e.schema), e.data)})`;
    default: return e.message ?? `fails ${e.keyword}`;
  }
}

/**
 * Why a key is refused, checked against the key schema itself (ajv's sub-errors for property names
 * do not say which key they are about).
 */
export function keyMessage(name: string, schema: AnySchemaObject): string {
  const message = schemaText(schema, 'errorMessage');
  if (Array.isArray(schema.anyOf)) return `key ${show(name)} ${message ?? 'is not allowed'}`;
  const max = schema.maxLength as number | undefined;
  if (name.length === 0) return 'a key must not be empty';
  if (max !== undefined && codePoints(name) > max) {
    return `key ${show(name)} is ${codePoints(name)} characters long; keys become the service's ref, which holds at most ${max}`;
  }
  const pattern = schema.pattern as string | undefined;
  if (pattern !== undefined && !new RegExp(pattern, 'u').test(name)) {
    return `key ${show(name)} ${schemaText(schema, 'patternErrorMessage') ?? `must match ${pattern}`}`;
  }
  return `key ${show(name)} ${message ?? 'is not allowed'}`;
}

/** Characters of `text` as JSON Schema's length keywords count them: code points. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
