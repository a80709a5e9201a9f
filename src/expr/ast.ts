/**
 * The abstract syntax tree of a filter expression. Every node carries a `span` (UTF-16 offsets into
 * the source, end exclusive); spans are excluded from equality (`equalExpressions`). The tree is
 * semantic, not syntactic: parentheses leave no node (precedence is in the shape), `==` and `eq`
 * give the same node, runs of one logical operator are one n-ary `logical` node (also across
 * parentheses: `a or (b or c)` is `or[a, b, c]`), and string literals hold their bytes, not their
 * spelling. That is what lets the planner compare two expressions by meaning.
 *
 * Byte strings are JS strings with one char per byte (latin1, char codes 0-255), because Rules
 * strings are byte strings (`"\x80"` is legal). `bytesToText` converts them back to text.
 */

/** A source range: `start` inclusive, `end` exclusive, UTF-16 offsets into the original source. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Logical operators, from loosest to tightest binding: `or` < `xor` < `and`. */
export type LogicalOp = 'or' | 'xor' | 'and';

/** Comparison operators in canonical (English) spelling; `is_true` is a Bool standing alone. */
export type ComparisonOp =
  | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'
  | 'contains' | 'matches' | 'wildcard' | 'strict wildcard'
  | 'in' | 'bitwise_and' | 'is_true';

/** A Bool-valued (or Array<Bool>-valued inside quantifiers) expression. */
export type Expression = LogicalExpr | NotExpr | QuantifierExpr | ComparisonExpr | ConstExpr;

/** `a and b and c`, `a or b`, `a xor b`: n-ary, at least two items, no item with the same op. */
export interface LogicalExpr {
  readonly type: 'logical';
  readonly op: LogicalOp;
  readonly items: readonly Expression[];
  readonly span: Span;
}

/** `not x` / `!x`: negation of one simple expression (element-wise on Array<Bool>). */
export interface NotExpr {
  readonly type: 'not';
  readonly arg: Expression;
  readonly span: Span;
}

/** `any(x)` / `all(x)` over an Array<Bool>. */
export interface QuantifierExpr {
  readonly type: 'quantifier';
  readonly op: 'any' | 'all';
  readonly arg: Expression | ValueExpr;
  readonly span: Span;
}

/** `lhs op rhs`, or a Bool `lhs` alone (`op` = `is_true`, `rhs` = null). */
export interface ComparisonExpr {
  readonly type: 'comparison';
  readonly lhs: ValueExpr;
  readonly op: ComparisonOp;
  readonly rhs: Rhs | null;
  readonly span: Span;
}

/** The whole expression `true` or `false` (Cloudflare's match-all rule expression). */
export interface ConstExpr {
  readonly type: 'const';
  readonly value: boolean;
  readonly span: Span;
}

/** A field or a function call, followed by indexes: `http.request.headers["x"][0]`, `lower(f)`. */
export interface ValueExpr {
  readonly type: 'value';
  readonly base: FieldRef | CallExpr;
  readonly indexes: readonly IndexStep[];
  readonly span: Span;
}

/** A field of the catalog, by its exact name. */
export interface FieldRef {
  readonly type: 'field';
  readonly name: string;
  readonly span: Span;
}

/** A function call. */
export interface CallExpr {
  readonly type: 'call';
  readonly name: string;
  readonly args: readonly CallArg[];
  readonly span: Span;
}

/** A function argument: a value, a Bool expression, or a literal. */
export type CallArg = ValueExpr | Expression | Literal;

/** `[0]`, `["key"]` or `[*]`. */
export type IndexStep =
  | { readonly kind: 'index'; readonly value: number }
  | { readonly kind: 'key'; readonly value: string }
  | { readonly kind: 'each' };

/** A scalar literal. */
export type Literal = BytesLiteral | IntLiteral | IpLiteral;

/** A byte string (from a quoted, raw or hex literal); `value` has one char per byte. */
export interface BytesLiteral {
  readonly type: 'bytes';
  readonly value: string;
  readonly span: Span;
}

/** A 64-bit integer. */
export interface IntLiteral {
  readonly type: 'int';
  readonly value: bigint;
  readonly span: Span;
}

/** An IP address in canonical text form (`192.0.2.1`, `2001:db8::1`). */
export interface IpLiteral {
  readonly type: 'ip';
  readonly value: string;
  readonly span: Span;
}

/** The right-hand side of a comparison. */
export type Rhs = Literal | RegexLiteral | WildcardLiteral | SetLiteral | ListRef;

/** A `matches` pattern (Rust regex syntax), as the regex engine receives it. */
export interface RegexLiteral {
  readonly type: 'regex';
  readonly pattern: string;
  readonly span: Span;
}

/** A `wildcard` / `strict wildcard` pattern; `value` holds bytes (escapes `\*` `\\` still in it). */
export interface WildcardLiteral {
  readonly type: 'wildcard';
  readonly value: string;
  readonly span: Span;
}

/** `{ item item ... }` for `in`. */
export interface SetLiteral {
  readonly type: 'set';
  readonly items: readonly SetItem[];
  readonly span: Span;
}

/** An element of a set: a literal, an integer range, an IP range or a CIDR. */
export type SetItem = Literal | IntRangeLiteral | IpRangeLiteral | IpCidrLiteral;

/** `a..b` (inclusive) in an Int set. */
export interface IntRangeLiteral {
  readonly type: 'int_range';
  readonly start: bigint;
  readonly end: bigint;
  readonly span: Span;
}

/** `a..b` (inclusive) in an IP set. */
export interface IpRangeLiteral {
  readonly type: 'ip_range';
  readonly start: string;
  readonly end: string;
  readonly span: Span;
}

/** `addr/len` in an IP set; host bits are zero. */
export interface IpCidrLiteral {
  readonly type: 'ip_cidr';
  readonly address: string;
  readonly prefix: number;
  readonly span: Span;
}

/** `$name`: a named list. */
export interface ListRef {
  readonly type: 'list';
  readonly name: string;
  readonly span: Span;
}

/** Any node of the tree. */
export type Node = Expression | ValueExpr | FieldRef | CallExpr | Rhs | SetItem;

/** True for the nodes that are Bool expressions (as opposed to values and literals). */
export function isExpression(node: CallArg | Expression | ValueExpr): node is Expression {
  return (
    node.type === 'logical' || node.type === 'not' || node.type === 'quantifier' ||
    node.type === 'comparison' || node.type === 'const'
  );
}

/** True for literal call arguments. */
export function isLiteral(node: CallArg): node is Literal {
  return node.type === 'bytes' || node.type === 'int' || node.type === 'ip';
}

/** Structural equality of two trees, ignoring spans. */
export function equalExpressions(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => equalExpressions(item, b[i]));
  }
  const ka = Object.keys(a as object).filter((k) => k !== 'span');
  const kb = Object.keys(b as object).filter((k) => k !== 'span');
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && equalExpressions(ra[k], rb[k]));
}

/** A deep copy of a tree without its spans (for snapshots and JSON). */
export function stripSpans<N>(node: N): N {
  if (Array.isArray(node)) return node.map((item) => stripSpans(item)) as N;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as object)) if (k !== 'span') out[k] = stripSpans(v);
  return out as N;
}

/** Converts a byte string (one char per byte) to text, decoding UTF-8 (invalid bytes become U+FFFD). */
export function bytesToText(bytes: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(bytes)) return bytes;
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Converts text to a byte string (UTF-8, one char per byte). */
export function textToBytes(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  return Buffer.from(text, 'utf8').toString('latin1');
}
