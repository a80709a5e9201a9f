/**
 * The Rules expression language (wirefilter dialect as Cloudflare runs it): parse and type-check
 * filter expressions, print them canonically, compile them to closures and evaluate requests.
 *
 * @example
 * ```ts
 * import { parse, format, compile } from './expr/index.js';
 * const expr = parse('http.request.uri.path matches "^/api/" and ip.src in {203.0.113.0/24}');
 * format(expr); // 'http.request.uri.path matches "^/api/" and ip.src in {203.0.113.0/24}'
 * compile(expr)({ 'http.request.uri.path': '/api/x', 'ip.src': '203.0.113.7' }); // true
 * ```
 */
import type { Expression } from './ast.js';
import { compileExpression, type CompileOptions, type CompiledFilter } from './compile.js';
import { equivalenceKey } from './equivalence.js';
import { format as formatExpression } from './format.js';
import { parseExpression, type ParseOptions } from './parse.js';
import { inspectExpression, type Inspection } from './inspect.js';
export { operatorOffset } from './inspect.js';
export { listUses, customListUses, isCustomListName, type ListUse } from './list-uses.js';
export { mixesListsAndFieldsOutside } from './phase-fields.js';
export { walkExpression, type ExpressionVisitor } from './walk.js';

export type * from './ast.js';
export { equalExpressions, stripSpans, bytesToText, textToBytes, isExpression } from './ast.js';
export { ExpressionError, type ExpressionErrorKind } from './errors.js';
export { equivalenceKey } from './equivalence.js';
export { type ParseOptions } from './parse.js';
export { ExpressionLimits } from './limits.js';
export { PHASES, DEFAULT_PHASE, FIELDS, fieldType, getField, fieldNames, type Phase, type FieldDef } from './scheme.js';
export { FUNCTIONS, functionNames, type FunctionDef } from './functions/catalog.js';
export { T, arrayOf, mapOf, sameType, typeName, parseTypeName, type Type, type ScalarKind } from './types.js';
export {
  ExecutionContext, RequestFieldError, convert as convertFieldValue,
  type FieldValue, type RequestFields, type Value,
} from './context.js';
export type { CompileOptions, CompiledFilter } from './compile.js';
export type { Lists } from './compile-rhs.js';
export type { Inspection } from './inspect.js';
export { requestFields, requestFieldsWithHeaders, type RequestDescription } from './request.js';
export { parseIp, parseIpv4, formatIp, networkAddress, type IpValue } from './ip.js';

/** Lexes, parses and type-checks `source`; throws `ExpressionError` (never anything else). */
export function parse(source: string, options?: ParseOptions): Expression {
  return parseExpression(source, options);
}

// The canonical text of an expression (see format.ts for the canonical form).
export { format } from './format.js';

/** `format(parse(source, options))`: what the planner compares. */
export function canonicalize(source: string, options?: ParseOptions): string {
  return formatExpression(parseExpression(source, options));
}

/**
 * The canonical text of `source` and its equivalence key (set literals as sets: order, repeats and
 * range spellings ignored), from one parse. Equal keys evaluate identically on every request.
 * @example canonicalForms('ip.src in {10.0.0.2 10.0.0.1}') // { canonical: 'ip.src in {10.0.0.2 10.0.0.1}', key: 'ip.src in {10.0.0.1..10.0.0.2}' }
 */
export function canonicalForms(source: string, options?: ParseOptions): { canonical: string; key: string } {
  return formsOf(parseExpression(source, options));
}

/** The canonical text and equivalence key of a parsed expression. */
export function formsOf(expr: Expression): { canonical: string; key: string } {
  const canonical = formatExpression(expr);
  // Only a set literal can make the two differ; its text always has a `{`.
  return { canonical, key: canonical.includes('{') ? equivalenceKey(expr) : canonical };
}

/** Compiles a parsed expression into `(request) => boolean`. */
export function compile(expr: Expression, options?: CompileOptions): CompiledFilter {
  return compileExpression(expr, options);
}

/** The fields, functions and operators an expression uses (e.g. `operators.has('matches')`). */
export function inspect(expr: Expression): Inspection {
  return inspectExpression(expr);
}
export { lastAddress } from './ip.js';
