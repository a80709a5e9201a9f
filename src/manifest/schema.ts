/**
 * Validates manifest data against `schemas/zone-manifest.schema.json` (the authority on the format)
 * with ajv, compiled once per process, collecting all errors. ajv's errors are then rewritten into
 * located issues that read like the rest of zonewall (`must be one of ... (got "blok")`): the noise of
 * `anyOf` branches is resolved by picking the branch whose type fits the value, `if` bookkeeping is
 * dropped, and the schema's `errorMessage` / `patternErrorMessage` annotations (the same ones
 * editors show, via yaml-language-server) replace ajv's wording where the schema gives one.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, AnySchemaObject, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import type { DocPath, ManifestIssue } from './errors.js';
import type { Locator } from './locate.js';
import { manifestValidatorModule } from './schema-aot.js';
import { keyedSections, sectionKeysValid } from './schema-keys.js';
import { describeError, keyMessage } from './schema-messages.js';

const schemaText = readFileSync(new URL('../../schemas/zone-manifest.schema.json', import.meta.url), 'utf8');

/** The manifest JSON Schema, as loaded from `schemas/zone-manifest.schema.json`. */
export const manifestSchema = JSON.parse(schemaText) as AnySchemaObject & { $id: string; $defs: Record<string, AnySchemaObject> };

/** Hash of the schema text: the ahead-of-time validator is used only if it was built from this schema. */
export const manifestSchemaHash = createHash('sha256').update(schemaText).digest('hex');

let ajv: Ajv2020 | undefined;
const branchValidators = new WeakMap<object, ValidateFunction>();

/**
 * The ajv instance the schema is compiled with, at run time and by `npm run build` (which writes
 * the standalone validator with `code: { source: true }`); one place, so both validate alike.
 */
export function createManifestAjv(extra: Options = {}): Ajv2020 {
  // Loaded on demand: with the ahead-of-time validator, a valid manifest never needs ajv's compiler.
  const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const instance = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, ...extra });
  // Annotations read by editors (yaml-language-server) and by describeError; no validation of their own.
  instance.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  instance.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  instance.addKeyword({ keyword: 'tsType', schemaType: 'string' });
  return instance;
}

/** A validator that only answers whether data is valid (`schema-quick.ts`). */
type AcceptFunction = (data: unknown) => boolean;

/** The module `npm run build` writes: the full validator, its fast path, and the schema's hash. */
interface AheadOfTimeModule extends ValidateFunction {
  schemaHash?: string;
  quick?: AcceptFunction;
}

/** The validators in use: the full one (errors), and the fast path for valid data, when built. */
interface Validators {
  full: ValidateFunction;
  quick?: AcceptFunction;
  /** The sections whose keys the fast path leaves to `sectionKeysValid` (`schema-keys.ts`). */
  keyedSections: readonly string[];
}

let validators: Validators | undefined;

/**
 * The validators compiled ahead of time by `npm run build` when they exist and were generated from
 * this very schema; else (a schema edited after the build, or a run from sources) the full one
 * compiled at run time, alone: compiling a second one would cost more than it saves.
 */
function compiledValidators(): Validators {
  if (validators !== undefined) return validators;
  const mod = manifestValidatorModule() as AheadOfTimeModule | undefined;
  validators = mod?.schemaHash === manifestSchemaHash
    ? { full: mod, quick: mod.quick, keyedSections: keyedSections(manifestSchema) }
    : { full: runtimeAjv().getSchema(manifestSchema.$id)!, keyedSections: [] };
  return validators;
}

/** The runtime ajv, with the whole schema compiled (branches of error reports are looked up in it). */
function runtimeAjv(): Ajv2020 {
  if (ajv !== undefined) return ajv;
  ajv = createManifestAjv();
  ajv.addSchema(manifestSchema);
  return ajv;
}

/** The validator that reports errors: ahead-of-time when built, else compiled on first use; reused for the life of the process. */
export function compiledValidator(): ValidateFunction {
  return compiledValidators().full;
}

/** Schema issues of a document, and the paths they concern (to keep later checks off broken parts). */
export interface SchemaResult {
  issues: ManifestIssue[];
  /** Every prefix of every issue path, as `pathKey`s. */
  dirty: Set<string>;
}

/** A path as a map key. */
export function pathKey(path: DocPath): string {
  return path.join('\u0000');
}

/** Validates `data` (the whole manifest) against the schema. */
export function checkSchema(data: unknown, locator: Locator): SchemaResult {
  const { full: validate, quick, keyedSections: sections } = compiledValidators();
  const result: SchemaResult = { issues: [], dirty: new Set() };
  // Valid data passes the fast path alone; invalid data is validated again in full, for its errors.
  if ((quick?.(data) === true && sectionKeysValid(data, sections, (map) => writtenKeys(locator, map))) || validate(data)) return result;
  for (const e of resolveErrors(validate.errors ?? [], data, '')) {
    const issue = toIssue(e, data, locator);
    result.issues.push(issue.issue);
    for (let i = 0; i <= issue.path.length; i++) result.dirty.add(pathKey(issue.path.slice(0, i)));
  }
  return result;
}

/** A map's keys as the reader wrote them down (no `Object.keys` of a 1,000-key dictionary object); else its own keys. */
function writtenKeys(locator: Locator, map: object): readonly string[] {
  const info = locator.containerOf(map);
  return info?.kind === 'map' ? info.keyList() : Object.keys(map);
}

/**
 * Drops `if` bookkeeping and resolves `anyOf`/`oneOf` failures: when exactly one branch accepts the
 * value's type, that branch's own errors are reported (re-validated alone, since ajv's branch errors
 * from `$ref`s cannot be told apart); otherwise the combinator's one message is.
 */
function resolveErrors(errors: readonly ErrorObject[], root: unknown, base: string): ErrorObject[] {
  const out: ErrorObject[] = [];
  for (const raw of errors) {
    const e = base === '' ? raw : { ...raw, instancePath: base + raw.instancePath };
    if (e.keyword === 'if') continue;
    if (e.schemaPath.includes('/propertyNames/')) continue;
    if (e.keyword === 'propertyNames') {
      // Key errors are described from the key and its schema (see toIssue). Their sub-errors come
      // right before, at the map's own path (a `$ref`'d key schema hides the propertyNames path).
      while (out.length > 0 && out[out.length - 1].instancePath === e.instancePath && stringKeywords.has(out[out.length - 1].keyword)) out.pop();
      out.push(e);
      continue;
    }
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') {
      out.push(e);
      continue;
    }
    // ajv emits a failed combinator's branch errors right before it: take them back.
    while (out.length > 0 && isWithin(out[out.length - 1].instancePath, e.instancePath)) out.pop();
    const branch = soleBranchForType(e.schema as AnySchemaObject[], e.data);
    if (branch === undefined) {
      out.push(e);
      continue;
    }
    const validateBranch = branchValidator(branch);
    if (validateBranch(e.data)) continue;
    out.push(...resolveErrors(validateBranch.errors ?? [], root, e.instancePath));
  }
  // `type: string` beside an `enum` says less than the enum: keep the enum's message only.
  const enumAt = new Set(out.filter((e) => e.keyword === 'enum').map((e) => e.instancePath));
  return out.filter((e) => !(e.keyword === 'type' && enumAt.has(e.instancePath)));
}

/** Keywords that only apply to strings: on a map's own path they can only come from its key schema. */
const stringKeywords = new Set(['maxLength', 'minLength', 'pattern', 'enum', 'const', 'anyOf', 'type']);

function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/** Resolves a local `$ref` of the manifest schema. */
function deref(schema: AnySchemaObject): AnySchemaObject {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
  return manifestSchema.$defs[ref.slice('#/$defs/'.length)] ?? schema;
}

/** The JSON type of a value, as JSON Schema names it. */
export function jsonSchemaType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function soleBranchForType(branches: readonly AnySchemaObject[], data: unknown): AnySchemaObject | undefined {
  const t = jsonSchemaType(data);
  const fitting = branches.filter((b) => {
    const declared = deref(b).type as string | string[] | undefined;
    if (declared === undefined) return true;
    const types = Array.isArray(declared) ? declared : [declared];
    return types.includes(t) || (t === 'integer' && types.includes('number'));
  });
  return fitting.length === 1 ? fitting[0] : undefined;
}

function branchValidator(branch: AnySchemaObject): ValidateFunction {
  let v = branchValidators.get(branch);
  if (!v) {
    runtimeAjv();
    const ref = branch.$ref;
    v = typeof ref === 'string' ? ajv!.getSchema(manifestSchema.$id + ref) : ajv!.compile(branch);
    if (!v) throw new Error(`schema reference ${String(ref)} does not resolve`);
    branchValidators.set(branch, v);
  }
  return v;
}

/**
 * Converts an ajv error's JSON pointer (`instancePath`) into a document path of `root`: numeric
 * segments of lists become numbers, so the path locates the node in the YAML (cases files too).
 */
export function pointerToPath(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let data = root;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path.push(Array.isArray(data) ? Number(seg) : seg);
    data = data === null || typeof data !== 'object' ? undefined : (data as Record<string, unknown>)[seg];
  }
  return path;
}

function toIssue(e: ErrorObject, root: unknown, locator: Locator): { issue: ManifestIssue; path: DocPath } {
  const at = pointerToPath(e.instancePath, root);
  if (e.keyword === 'propertyNames') {
    const name = String(e.params.propertyName);
    const path = [...at, name];
    return { issue: locator.issue(path, keyMessage(name, deref(e.schema as AnySchemaObject)), 'key'), path };
  }
  if (e.keyword === 'additionalProperties') {
    const path = [...at, String(e.params.additionalProperty)];
    return { issue: locator.issue(path, describeError(e), 'key'), path };
  }
  return { issue: locator.issue(at, describeError(e)), path: at };
}
