/**
 * Type errors for a right-hand side written as a literal of another type. The real engine lexes the
 * right-hand side as the literal its left-hand side asks for, so `http.request.uri.path gt 5`
 * fails inside the hex-bytes lexer ("expected 2 characters, but found 1") and
 * `cf.edge.server_port eq "80"` inside the integer lexer ("expected digit"): true, but no help.
 * When the text there lexes as a literal of another type, zonewall reports a `TypeMismatch` in the
 * real engine's wording (`expected value of type Bytes, but got Int`) over that literal, with a hint
 * naming the left-hand side and its type and how to write the value (decision: readable errors over
 * the real engine's text in this one case; the kind and position stay the engine's style).
 */
import { LexFailure } from './errors.js';
import { lexInt } from './lex.js';
import { lexBytes, lexQuotedOrRaw } from './lex-string.js';
import { lexIpAddress } from './lex-ip.js';
import { bytesToText } from './ast.js';
import { parseIp } from './ip.js';

/** The scalar types a literal can have. */
type LiteralType = 'Bytes' | 'Int' | 'Ip';

/** The literal at `pos` and its type, when the text there lexes as one whole token. */
function literalAt(src: string, pos: number): { type: LiteralType; end: number; value: string } | undefined {
  const found = literalStartingAt(src, pos);
  // `01;02` or `1x` are no literal: only a whole token (up to a space, `)`, `}` or the end) counts.
  return found !== undefined && (found.end >= src.length || /[\s)}\],]/.test(src[found.end]!)) ? found : undefined;
}

function literalStartingAt(src: string, pos: number): { type: LiteralType; end: number; value: string } | undefined {
  const attempt = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (err) {
      if (err instanceof LexFailure) return undefined;
      throw err;
    }
  };
  const c = src[pos];
  if (c === '"' || (c === 'r' && (src[pos + 1] === '"' || src[pos + 1] === '#'))) {
    const s = attempt(() => lexQuotedOrRaw(src, pos));
    return s === undefined ? undefined : { type: 'Bytes', end: s.end, value: bytesToText(s.value) };
  }
  const hex = attempt(() => lexBytes(src, pos));
  if (hex !== undefined) return { type: 'Bytes', end: hex.end, value: bytesToText(hex.value) };
  const ip = attempt(() => lexIpAddress(src, pos));
  if (ip !== undefined && /[.:]/.test(src.slice(pos, ip.end))) return { type: 'Ip', end: ip.end, value: ip.value };
  const n = attempt(() => lexInt(src, pos));
  return n === undefined ? undefined : { type: 'Int', end: n.end, value: n.value.toString() };
}

/** How to write `value` as a literal of type `expected`. */
function howToWrite(expected: LiteralType | 'pattern', found: { type: LiteralType; value: string }): string {
  if (expected === 'Bytes' || expected === 'pattern') return `write the ${expected === 'pattern' ? 'pattern' : 'value'} as a quoted string, e.g. ${JSON.stringify(found.value)}`;
  if (expected === 'Int') return /^-?\d+$/.test(found.value) ? `write the integer without quotes: ${found.value}` : 'write an integer, e.g. 443';
  return parseIp(found.value) !== undefined ? `write the address without quotes: ${found.value}` : 'write an IP address, e.g. 192.0.2.1';
}

/**
 * The `TypeMismatch` failure to raise instead of `err` (a failure lexing the right-hand side at
 * `pos` as `expected`), or undefined when the text there is no literal of another type.
 * @example typeMismatch(err, 'http.host eq 5', 13, 'Bytes', 'http.host') // expected value of type Bytes, but got Int
 */
export function typeMismatch(err: unknown, src: string, pos: number, expected: LiteralType | 'pattern', lhs: string): LexFailure | undefined {
  if (!(err instanceof LexFailure)) return undefined;
  const found = literalAt(src, pos);
  const wanted = expected === 'pattern' ? 'Bytes' : expected;
  if (found === undefined || found.type === wanted) return undefined;
  const what = expected === 'pattern' ? 'Bytes (a quoted pattern)' : wanted;
  return new LexFailure('TypeMismatch', `expected value of type ${what}, but got ${found.type}`, pos, found.end,
    `${lhs} is of type ${wanted}: ${howToWrite(expected, found)}`);
}

/**
 * A hint for a right-hand side the real engine's error leaves unexplained, or undefined: a CIDR or
 * range after `eq`/`ne` (`ip.src eq 10.0.0.0/24`: a network is a set item), a decimal number for an
 * Int (`cf.threat_score eq 1.5`).
 */
export function rhsHint(src: string, pos: number, expected: LiteralType | 'pattern', lhs: string, negated = false): string | undefined {
  const rest = src.slice(pos);
  if (expected === 'Ip') {
    const net = /^[0-9a-fA-F:.]+(?:\/\d+|\.\.[0-9a-fA-F:.]+)/.exec(rest);
    if (net !== null) return `a network or range is a set item: write ${negated ? 'not ' : ''}${lhs} in {${net[0]}}`;
  }
  if (expected === 'Int' && /^-?\d+\.\d/.test(rest)) return `${lhs} is of type Int: it takes whole numbers only`;
  return undefined;
}
