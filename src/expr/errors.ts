/**
 * `ExpressionError`: a filter expression that does not lex, parse or type-check. It carries the
 * real engine's error kind and message (wirefilter `LexErrorKind`, reference §4.2) and the position
 * of the offending token, and renders like the real engine (`ast/parse.rs` `impl Display for
 * ParseError`):
 *
 *     Filter parsing error (1:1):
 *     xyz
 *     ^^^ unknown identifier
 *
 * Positions are UTF-16 based (offset, and column within the line), so they index JS strings and
 * editors directly; the real engine counts bytes, which only differs after non-ASCII text.
 */
import { ZonewallError } from '../errors.js';

/**
 * Error kinds, named after wirefilter's `LexErrorKind` variants; `UnrecognisedInput` is its `EOF`
 * ("unrecognised input": input left over), `ExpressionTooLong` is the API's 4,096-character limit,
 * `UnknownIdentifier` also covers fields/functions that exist but not in the requested phase.
 */
export type ExpressionErrorKind =
  | 'UnknownIdentifier'
  | 'UnrecognisedInput'
  | 'ExpectedName'
  | 'ExpectedLiteral'
  | 'ParseInt'
  | 'ParseNetwork'
  | 'ParseRegex'
  | 'ParseWildcard'
  | 'InvalidCharacterEscape'
  | 'MissingEndingQuote'
  | 'InvalidRawStringHashCount'
  | 'CountMismatch'
  | 'UnsupportedOp'
  | 'TypeMismatch'
  | 'InvalidIndexAccess'
  | 'InvalidArgumentsCount'
  | 'InvalidArgumentKind'
  | 'InvalidArgumentType'
  | 'InvalidArgumentValue'
  | 'InvalidMapEachAccess'
  | 'InvalidListName'
  | 'IncompatibleRangeBounds'
  | 'NestingLimitExceeded'
  | 'ExpressionTooLong';

/** Where an error points: offset and length in UTF-16 units of the original source. */
export interface ErrorSpan {
  readonly offset: number;
  readonly length: number;
}

/** Internal failure raised by the lexer/parser before it is bound to the source text. */
export class LexFailure extends Error {
  constructor(
    readonly errorKind: ExpressionErrorKind,
    readonly reason: string,
    readonly start: number,
    readonly end: number,
    readonly hint?: string,
  ) {
    super(reason);
  }
}

/** Throws a `LexFailure` (a helper so the parser reads as a sequence of expectations). */
export function fail(kind: ExpressionErrorKind, reason: string, start: number, end: number, hint?: string): never {
  throw new LexFailure(kind, reason, start, end, hint);
}

/**
 * A filter expression that does not parse or type-check (code `ERR_EXPRESSION`). The inherited
 * `kind` stays ZonewallError's user/system classification (it drives exit codes); the language's
 * error kind is `errorKind`.
 */
export class ExpressionError extends ZonewallError {
  /** The real engine's error kind, e.g. `UnknownIdentifier`, `UnrecognisedInput`. */
  readonly errorKind: ExpressionErrorKind;
  /** The real engine's message, e.g. `unknown identifier`. */
  readonly reason: string;
  /** 0-based UTF-16 offset of the offending token in the source. */
  readonly offset: number;
  /** Length of the offending span (at least 1). */
  readonly length: number;
  /** 1-based line of `offset`. */
  readonly line: number;
  /** 1-based column of `offset` within its line (UTF-16 units). */
  readonly column: number;
  /** The offending line and a caret run under the span, two lines. */
  readonly snippet: string;
  /** A suggestion such as `did you mean "http.host"?`, when there is one. */
  readonly hint: string | undefined;
  /** The whole source that failed. */
  readonly source: string;

  constructor(source: string, kind: ExpressionErrorKind, reason: string, span: ErrorSpan, hint?: string) {
    const offset = Math.max(0, Math.min(span.offset, source.length));
    const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
    const lineEndRaw = source.indexOf('\n', offset);
    const lineEnd = lineEndRaw < 0 ? source.length : lineEndRaw;
    const line = countNewlines(source, lineStart) + 1;
    const column = offset - lineStart + 1;
    const lineText = source.slice(lineStart, lineEnd).replace(/\r$/, '');
    const carets = Math.max(1, Math.min(span.length, lineEnd - offset));
    const snippet = `${lineText}\n${' '.repeat(offset - lineStart)}${'^'.repeat(carets)}`;
    const message =
      `Filter parsing error (${line}:${column}):\n${snippet} ${reason}` + (hint ? `\n${hint}` : '');
    super('ERR_EXPRESSION', message);
    this.name = 'ExpressionError [ERR_EXPRESSION]';
    this.errorKind = kind;
    this.reason = reason;
    this.offset = offset;
    this.length = Math.max(1, span.length);
    this.line = line;
    this.column = column;
    this.snippet = snippet;
    this.hint = hint;
    this.source = source;
  }
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
