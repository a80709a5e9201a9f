/**
 * The function catalog: each function's signature (argument count, kind and type of each argument,
 * literal-value checks), return type, phases, and the builder of its implementation. Argument *kind*
 * is enforced like the real engine (`FunctionArgKind::{Field, Literal}`): "Field" means any
 * non-literal (a field, a call, a Bool expression). Messages are the real engine's (§4.2).
 * `any`/`all` are logical quantifiers handled by the parser, not catalog functions.
 */
import type { Literal } from '../ast.js';
import type { Value } from '../context.js';
import { PhaseGroups, type Phase } from '../scheme.js';
import { T, arrayOf, sameType, typeName, type Type } from '../types.js';
import { parseWildcard, WildcardSyntaxError } from '../wildcard.js';
import { compileRegex, RegexSyntaxError } from '../regex.js';
import * as str from './strings.js';
import { urlDecode } from './url-decode.js';
import { lookupJsonInteger, lookupJsonString } from './json.js';
import { decodeBase64, encodeBase64, sha256, uuidv4 } from './encoding.js';
import { cidr, cidr6 } from './cidr.js';
import { regexReplace, removeQueryArgs, wildcardReplace } from './replace.js';
import { isTimedHmacValidV0 } from './hmac.js';

/** What the checker knows about one argument. `type` is the element type when the arg is mapped. */
export interface ArgInfo {
  readonly type: Type;
  readonly literal: Literal | undefined;
  /** The field name when the argument is a bare field (no call, no index). */
  readonly fieldName: string | undefined;
}

/** A refused argument. */
export interface ArgProblem {
  readonly kind: 'InvalidArgumentKind' | 'InvalidArgumentType' | 'InvalidArgumentValue';
  readonly reason: string;
}

/** A function body: evaluated arguments in (undefined = missing), a value or missing out. */
export type FunctionImpl = (args: readonly (Value | undefined)[]) => Value | undefined;

/** A catalog function. */
export interface FunctionDef {
  readonly name: string;
  readonly phases: readonly Phase[] | null;
  readonly minArgs: number;
  readonly maxArgs: number;
  checkArg(index: number, arg: ArgInfo, previous: readonly ArgInfo[]): ArgProblem | undefined;
  returnType(args: readonly ArgInfo[]): Type;
  build(args: readonly ArgInfo[]): FunctionImpl;
}

type Accepts = Type | 'Array<_>';
interface Param {
  readonly kind: 'Field' | 'Literal' | 'Any';
  readonly types: readonly Accepts[];
  readonly check?: (literal: Literal) => string | undefined;
}

const field = (...types: Accepts[]): Param => ({ kind: 'Field', types });
const lit = (types: Accepts[], check?: Param['check']): Param => ({ kind: 'Literal', types, check });
const anyKind = (...types: Accepts[]): Param => ({ kind: 'Any', types });

const int = (l: Literal): number => Number(l.type === 'int' ? l.value : 0n);
const bytes = (l: Literal | undefined): string => (l && l.type === 'bytes' ? l.value : '');
const intRange = (lo: number, hi: number) => (l: Literal) =>
  int(l) >= lo && int(l) <= hi ? undefined : `value must be between ${lo} and ${hi}`;
const oneOfChars = (allowed: string) => (l: Literal) =>
  [...bytes(l)].every((c) => allowed.includes(c)) ? undefined : `flags may only contain ${allowed.split('').map((c) => `"${c}"`).join(', ')}`;

function accepts(t: Type, list: readonly Accepts[]): boolean {
  return list.some((a) => (a === 'Array<_>' ? t.kind === 'Array' : sameType(a, t)));
}

function checkParam(p: Param, index: number, arg: ArgInfo): ArgProblem | undefined {
  const kind = arg.literal ? 'Literal' : 'Field';
  if (p.kind !== 'Any' && p.kind !== kind) {
    return { kind: 'InvalidArgumentKind', reason: `invalid kind of argument #${index}: expected argument of kind ${p.kind}, but got ${kind}` };
  }
  if (!accepts(arg.type, p.types)) {
    const expected = p.types.map((a) => (a === 'Array<_>' ? a : typeName(a))).join(' or ');
    return { kind: 'InvalidArgumentType', reason: `invalid type of argument #${index}: expected value of type ${expected}, but got ${typeName(arg.type)}` };
  }
  const problem = arg.literal && p.check ? p.check(arg.literal) : undefined;
  return problem ? { kind: 'InvalidArgumentValue', reason: `invalid value of argument #${index}: invalid argument: ${JSON.stringify(problem)}` } : undefined;
}

interface Spec {
  phases: readonly Phase[] | null;
  params: readonly Param[];
  optional?: readonly Param[];
  rest?: Param;
  returns: Type | ((args: readonly ArgInfo[]) => Type);
  extraCheck?: (index: number, arg: ArgInfo, previous: readonly ArgInfo[]) => ArgProblem | undefined;
  /** The implementation, when it needs nothing from the arguments' literals. */
  impl?: FunctionImpl;
  /** Builds the implementation from the arguments (literal flags, patterns, types). */
  make?: (args: readonly ArgInfo[]) => FunctionImpl;
}

function define(name: string, spec: Spec): FunctionDef {
  const all = [...spec.params, ...(spec.optional ?? [])];
  return {
    name,
    phases: spec.phases,
    minArgs: spec.params.length,
    maxArgs: spec.rest ? Infinity : all.length,
    checkArg(index, arg, previous) {
      const p = all[index] ?? spec.rest;
      if (!p) return { kind: 'InvalidArgumentValue', reason: 'invalid number of arguments' };
      return checkParam(p, index, arg) ?? spec.extraCheck?.(index, arg, previous);
    },
    returnType: (args) => (typeof spec.returns === 'function' ? spec.returns(args) : spec.returns),
    build: (args) => spec.make?.(args) ?? spec.impl!,
  };
}

const S = T.Bytes;
const ALL = PhaseGroups.all;

function patternCheck(compile: (p: string) => unknown, Err: new (...a: never[]) => Error) {
  return (l: Literal): string | undefined => {
    try {
      compile(bytes(l));
      return undefined;
    } catch (err) {
      if (err instanceof Err) return err.message;
      throw err;
    }
  };
}

const DEFINITIONS: readonly FunctionDef[] = [
  define('lower', { phases: ALL, params: [field(S)], returns: S, impl: str.lower }),
  define('upper', { phases: ALL, params: [field(S)], returns: S, impl: str.upper }),
  define('len', { phases: ALL, params: [field(S, 'Array<_>')], returns: T.Int, impl: str.len }),
  define('starts_with', { phases: ALL, params: [field(S), lit([S])], returns: T.Bool, impl: str.startsWith }),
  define('ends_with', { phases: ALL, params: [field(S), lit([S])], returns: T.Bool, impl: str.endsWith }),
  define('concat', {
    phases: ALL, params: [anyKind(S, 'Array<_>'), anyKind(S, 'Array<_>')], rest: anyKind(S, 'Array<_>'),
    returns: (args) => args[0]?.type ?? S, impl: str.concat,
    extraCheck: (index, arg, previous) =>
      index > 0 && previous[0] && !sameType(previous[0].type, arg.type)
        ? { kind: 'InvalidArgumentType', reason: `invalid type of argument #${index}: expected value of type ${typeName(previous[0].type)}, but got ${typeName(arg.type)}` }
        : undefined,
  }),
  define('url_decode', {
    phases: ALL, params: [field(S)], optional: [lit([S], oneOfChars('ru'))], returns: S,
    make: (args) => urlDecode(bytes(args[1]?.literal)),
  }),
  define('remove_bytes', { phases: ALL, params: [field(S), lit([S])], returns: S, impl: str.removeBytes }),
  define('substring', { phases: ALL, params: [field(S), lit([T.Int])], optional: [lit([T.Int])], returns: S, impl: str.substring }),
  define('lookup_json_string', { phases: ALL, params: [field(S), lit([S, T.Int])], rest: lit([S, T.Int]), returns: S, impl: lookupJsonString }),
  define('lookup_json_integer', { phases: ALL, params: [field(S), lit([S, T.Int])], rest: lit([S, T.Int]), returns: T.Int, impl: lookupJsonInteger }),
  define('decode_base64', {
    phases: [...PhaseGroups.firewall, 'http_request_transform', 'http_request_late_transform', 'http_response_headers_transform'],
    params: [field(S)], returns: S, impl: decodeBase64,
  }),
  define('encode_base64', {
    phases: PhaseGroups.transform, params: [anyKind(S)], optional: [lit([S], oneOfChars('up'))], returns: S,
    make: (args) => encodeBase64(bytes(args[1]?.literal)),
  }),
  define('sha256', { phases: PhaseGroups.transform, params: [anyKind(S)], returns: S, impl: sha256 }),
  define('cidr', {
    phases: PhaseGroups.firewall, params: [field(T.Ip), lit([T.Int], intRange(1, 32)), lit([T.Int], intRange(1, 128))],
    returns: T.Ip, impl: cidr,
  }),
  define('cidr6', { phases: PhaseGroups.firewall, params: [field(T.Ip), lit([T.Int], intRange(1, 128))], returns: T.Ip, impl: cidr6 }),
  define('join', {
    phases: [...PhaseGroups.transform, 'http_request_firewall_custom', 'http_custom_errors'],
    params: [field(arrayOf(S)), lit([S])], returns: S, impl: str.join,
  }),
  define('split', {
    phases: ['http_response_headers_transform', 'http_custom_errors'],
    params: [field(S), lit([S], (l) => (bytes(l) === '' ? 'separator must not be empty' : undefined)), lit([T.Int], intRange(1, 128))],
    returns: arrayOf(S), impl: str.split,
  }),
  define('to_string', {
    phases: PhaseGroups.rewrite, params: [field(T.Int, T.Bool, T.Ip)], returns: S,
    make: (args) => str.toStringOf(args[0]?.type ?? T.Int),
  }),
  define('regex_replace', {
    phases: PhaseGroups.rewrite, params: [field(S), lit([S], patternCheck(compileRegex, RegexSyntaxError)), lit([S])], returns: S,
    make: (args) => regexReplace(bytes(args[1]?.literal), bytes(args[2]?.literal)),
  }),
  define('wildcard_replace', {
    phases: PhaseGroups.rewrite,
    params: [field(S), lit([S], patternCheck(parseWildcard, WildcardSyntaxError)), lit([S])], optional: [lit([S], oneOfChars('s'))],
    returns: S,
    make: (args) => wildcardReplace(bytes(args[1]?.literal), bytes(args[2]?.literal), bytes(args[3]?.literal)),
  }),
  define('remove_query_args', {
    phases: PhaseGroups.rewrite, params: [field(S), lit([S])], rest: lit([S]), returns: S, impl: removeQueryArgs,
    extraCheck: (index, arg) =>
      index === 0 && arg.fieldName !== 'http.request.uri.query' && arg.fieldName !== 'raw.http.request.uri.query'
        ? { kind: 'InvalidArgumentValue', reason: 'invalid value of argument #0: invalid argument: "the first argument must be http.request.uri.query or raw.http.request.uri.query"' }
        : undefined,
  }),
  define('uuidv4', { phases: PhaseGroups.rewrite, params: [field(S)], returns: S, impl: uuidv4 }),
  define('is_timed_hmac_valid_v0', {
    phases: ['http_request_firewall_custom', 'http_ratelimit'],
    params: [lit([S]), field(S), lit([T.Int], intRange(0, Number.MAX_SAFE_INTEGER)), anyKind(T.Int)],
    optional: [lit([T.Int], intRange(0, 255)), lit([S], oneOfChars('s'))],
    returns: T.Bool, impl: isTimedHmacValidV0,
  }),
];

/** Every function by name. */
export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(DEFINITIONS.map((d) => [d.name, d]));

/** All function names, sorted (plus the quantifiers `any` and `all`). */
export function functionNames(): string[] {
  return [...FUNCTIONS.keys(), 'any', 'all'].sort();
}
