/**
 * Validates cases-file data against `schemas/policy-tests.schema.json` (the authority on the
 * format) with ajv, compiled once per process, and turns ajv's errors into located issues that
 * read like the rest of zonewall: `cases[2].expect.action: must be one of block, challenge, ...
 * (got "blok")`, unknown properties at their key with a suggestion, the schema's
 * `patternErrorMessage` in place of a raw regular expression.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, AnySchemaObject, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { closest, MergeKeyMessage, pointerToPath, type DocPath, type ManifestIssue } from '../manifest/index.js';
import { casesValidatorModule } from './schema-aot.js';
import type { PositionedYaml } from './yaml.js';

const schemaText = readFileSync(new URL('../../schemas/policy-tests.schema.json', import.meta.url), 'utf8');

/** The cases file JSON Schema, as loaded from `schemas/policy-tests.schema.json`. */
export const policyTestsSchema = JSON.parse(schemaText) as AnySchemaObject & { $id: string };

/** Hash of the schema text: the ahead-of-time validator is used only if it was built from this schema. */
export const policyTestsSchemaHash = createHash('sha256').update(schemaText).digest('hex');

/**
 * The ajv instance the schema is compiled with, at run time and by `npm run build` (which writes
 * the standalone validator with `code: { source: true }`); one place, so both validate alike.
 */
export function createPolicyAjv(extra: Options = {}): Ajv2020 {
  // Loaded on demand: with the ahead-of-time validator, `zonewall test` never needs ajv's compiler.
  const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, ...extra });
  // An annotation editors show (yaml-language-server); describe() uses it instead of the pattern.
  ajv.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  return ajv;
}

let validator: ValidateFunction | undefined;

/** The validator compiled ahead of time by `npm run build` when built from this very schema, else compiled now. */
function compiled(): ValidateFunction {
  if (validator !== undefined) return validator;
  const built = casesValidatorModule() as (ValidateFunction & { schemaHash?: string }) | undefined;
  validator = built?.schemaHash === policyTestsSchemaHash ? built : createPolicyAjv().compile(policyTestsSchema);
  return validator;
}

/** Schema issues of a cases file's data (empty when it conforms). */
export function checkCasesSchema(data: unknown, doc: PositionedYaml): ManifestIssue[] {
  const validate = compiled();
  if (validate(data)) return [];
  const seen = new Set<string>();
  const issues: ManifestIssue[] = [];
  for (const e of relevant(validate.errors ?? [], data)) {
    const { path, message, anchor } = describe(e, data);
    const issue = doc.issue(path, message, anchor);
    const key = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(key)) issues.push(issue);
    seen.add(key);
  }
  return issues;
}

/**
 * A top-level list is a list of cases, an object is the long form: errors of the shape that does
 * not apply (`required: cases` on a list) are ajv's noise, dropped here.
 */
function relevant(errors: readonly ErrorObject[], data: unknown): ErrorObject[] {
  const topIsList = Array.isArray(data);
  return errors.filter((e) => !(topIsList && e.instancePath === '' && e.keyword !== 'type'));
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : `${typeof value} ${String(value)}`;
}

const typeWords: Record<string, string> = { object: 'a map', array: 'a list', string: 'a string', boolean: 'true or false', integer: 'an integer', number: 'a number' };

function describe(e: ErrorObject, root: unknown): { path: DocPath; message: string; anchor: 'key' | 'node' } {
  const at = pointerToPath(e.instancePath, root);
  const value = at.reduce<unknown>((d, seg) => (d === null || typeof d !== 'object' ? undefined : (d as Record<string, unknown>)[seg]), root);
  const schema = e.parentSchema as AnySchemaObject | undefined;
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(e.params.additionalProperty);
      if (name === '<<') return { path: [...at, name], anchor: 'key', message: MergeKeyMessage };
      const known = Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {}).filter((k) => k !== '$schema');
      const hint = closest(name, known);
      return { path: [...at, name], anchor: 'key', message: `unknown property "${name}"${hint ? `; did you mean "${hint}"?` : ''} (allowed: ${known.join(', ')})` };
    }
    case 'required':
      return { path: at, anchor: 'node', message: `missing required property "${String(e.params.missingProperty)}"` };
    case 'enum': {
      const allowed = e.params.allowedValues as unknown[];
      const hint = typeof value === 'string' ? closest(value, allowed.filter((v): v is string => typeof v === 'string')) : undefined;
      return { path: at, anchor: 'node', message: `must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}${hint ? `; did you mean "${hint}"?` : ''})` };
    }
    case 'type': {
      const types = ([] as string[]).concat(e.params.type as string | string[]).map((t) => typeWords[t] ?? t);
      return { path: at, anchor: 'node', message: `must be ${types.join(' or ')}, got ${typeOf(value)}` };
    }
    case 'pattern': {
      const custom = schema?.patternErrorMessage as string | undefined;
      return { path: at, anchor: 'node', message: `${custom ?? `must match ${String(e.params.pattern)}`} (got ${JSON.stringify(value)})` };
    }
    case 'minProperties':
      return { path: at, anchor: 'node', message: 'must say what is expected: give at least one of action, matched, allowed' };
    case 'minLength':
      return { path: at, anchor: 'node', message: 'must not be empty' };
    default:
      return { path: at, anchor: 'node', message: e.message ?? `fails ${e.keyword}` };
  }
}
