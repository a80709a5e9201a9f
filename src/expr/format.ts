/**
 * The canonical formatter: one text per meaning, so the planner can compare expressions as strings.
 *
 * Canonical form (decision, see the lead's notes):
 * - English lower-case operators: `eq ne lt le gt ge contains matches wildcard "strict wildcard" in
 *   bitwise_and`, and `and or xor not`; single spaces around every operator.
 * - Parentheses only where precedence needs them (`not` > `and` > `xor` > `or`): a logical operand
 *   of a tighter operator, of `not`, or inside a call/quantifier argument (where a bare `a or b`
 *   would not parse as one argument). Runs of one operator are flattened by the parser, so
 *   `a or (b or c)` and `(a or b) or c` both print `a or b or c`.
 * - Strings (and wildcard patterns, set items, map keys) as quoted strings with minimal escapes: `\"`
 *   and `\\`, `\xHH` (lower-case) for control bytes and bytes that are not valid UTF-8; other text
 *   as is. Hex byte strings (`6F:72:67`) print as quoted strings too.
 * - Regexes quoted when the quoted form gives back the same pattern, else raw `r#"..."#` with the
 *   fewest hashes that work.
 * - Integers in decimal (octal/hex spellings normalised); IPs in canonical form (RFC 5952 for v6);
 *   sets as `{a b c}` in source order; calls as `name(a, b)`.
 * Guarantees (tested): `format(parse(format(e)))` = `format(e)` and `parse(format(e))` equals `e`
 * (spans aside) for every parsed `e`.
 */
import type { CallArg, Expression, Literal, Rhs, SetItem, ValueExpr } from './ast.js';
import { isExpression } from './ast.js';
import { lexRegexLiteral } from './lex-string.js';

const PRECEDENCE = { or: 1, xor: 2, and: 3 } as const;

/** The canonical text of an expression. */
export function format(expr: Expression): string {
  switch (expr.type) {
    case 'const': return expr.value ? 'true' : 'false';
    case 'logical': {
      const mine = PRECEDENCE[expr.op];
      return expr.items
        .map((item) => (item.type === 'logical' && PRECEDENCE[item.op] <= mine ? `(${format(item)})` : format(item)))
        .join(` ${expr.op} `);
    }
    case 'not': return `not ${expr.arg.type === 'logical' ? `(${format(expr.arg)})` : format(expr.arg)}`;
    case 'quantifier': return `${expr.op}(${formatArg(expr.arg)})`;
    case 'comparison': {
      const lhs = formatValue(expr.lhs);
      return expr.op === 'is_true' || expr.rhs === null ? lhs : `${lhs} ${expr.op} ${formatRhs(expr.rhs)}`;
    }
  }
}

/** The canonical text of a value (field or call with indexes). */
export function formatValue(value: ValueExpr): string {
  const base =
    value.base.type === 'field' ? value.base.name : `${value.base.name}(${value.base.args.map(formatArg).join(', ')})`;
  if (value.indexes.length === 0) return base; // most values: no list to map and join
  return base + value.indexes.map((i) => (i.kind === 'each' ? '[*]' : i.kind === 'index' ? `[${i.value}]` : `[${quoteText(i.value)}]`)).join('');
}

function formatArg(arg: CallArg): string {
  if (arg.type === 'value') return formatValue(arg);
  if (isExpression(arg)) return arg.type === 'logical' ? `(${format(arg)})` : format(arg);
  return formatLiteral(arg);
}

function formatLiteral(lit: Literal): string {
  if (lit.type === 'bytes') return quoteBytes(lit.value);
  if (lit.type === 'int') return lit.value.toString();
  return lit.value;
}

/** The canonical text of a right-hand side. */
export function formatRhs(rhs: Rhs): string {
  switch (rhs.type) {
    case 'bytes': case 'int': case 'ip': return formatLiteral(rhs);
    case 'regex': return formatRegex(rhs.pattern);
    case 'wildcard': return quoteBytes(rhs.value);
    case 'list': return `$${rhs.name}`;
    case 'set': return `{${rhs.items.map(formatSetItem).join(' ')}}`;
  }
}

function formatSetItem(item: SetItem): string {
  switch (item.type) {
    case 'int_range': return `${item.start}..${item.end}`;
    case 'ip_range': return `${item.start}..${item.end}`;
    case 'ip_cidr': return `${item.address}/${item.prefix}`;
    default: return formatLiteral(item);
  }
}

function quoteText(text: string): string {
  return quoteBytes(Buffer.from(text, 'utf8').toString('latin1'));
}

/** A byte string as a quoted literal with minimal escapes (valid UTF-8 stays text). */
export function quoteBytes(bytes: string): string {
  let out = '"';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes.charCodeAt(i);
    if (b === 0x22 || b === 0x5c) { out += `\\${bytes[i]}`; i++; continue; }
    if (b >= 0x20 && b < 0x7f) { out += bytes[i]; i++; continue; }
    const seq = utf8Sequence(bytes, i);
    if (seq > 0) {
      out += Buffer.from(bytes.slice(i, i + seq), 'latin1').toString('utf8');
      i += seq;
      continue;
    }
    out += `\\x${b.toString(16).padStart(2, '0')}`;
    i++;
  }
  return `${out}"`;
}

// Length of a valid, printable multi-byte UTF-8 sequence at `i` (0 if none): strict decoding, so
// overlong forms, surrogates and C1 controls stay escaped.
function utf8Sequence(bytes: string, i: number): number {
  const b0 = bytes.charCodeAt(i);
  const len = b0 >= 0xc2 && b0 <= 0xdf ? 2 : b0 >= 0xe0 && b0 <= 0xef ? 3 : b0 >= 0xf0 && b0 <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > bytes.length) return 0;
  const chunk = bytes.slice(i, i + len);
  const text = Buffer.from(chunk, 'latin1').toString('utf8');
  if (Buffer.from(text, 'utf8').toString('latin1') !== chunk) return 0;
  const cp = text.codePointAt(0)!;
  return cp < 0xa0 ? 0 : len;
}

/** A regex literal that lexes back to exactly `pattern`. */
export function formatRegex(pattern: string): string {
  const quoted = `"${quoteRegexBody(pattern)}"`;
  if (lexesTo(quoted, pattern)) return quoted;
  for (let hashes = 0; hashes <= 255; hashes++) {
    const h = '#'.repeat(hashes);
    if (!pattern.includes(`"${h}`)) return `r${h}"${pattern}"${h}`;
  }
  return quoted;
}

// Mirrors the quoted-regex lexer: a `"` outside a class needs `\"`; escapes and class contents pass.
function quoteRegexBody(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      out += c + pattern[i + 1]!;
      i++;
    } else if (c === '"' && !inClass) {
      out += '\\"';
    } else {
      if (c === '[' && !inClass) inClass = true;
      else if (c === ']' && inClass) inClass = false;
      out += c;
    }
  }
  return out;
}

function lexesTo(literal: string, pattern: string): boolean {
  try {
    const l = lexRegexLiteral(literal, 0);
    return l.end === literal.length && l.value === pattern;
  } catch {
    return false;
  }
}
