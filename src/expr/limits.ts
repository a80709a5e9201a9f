/**
 * The limits of the expression language, in one `as const` object: the API's expression length,
 * wirefilter's parser nesting depth, and the compiled-regex size (re2js program instructions; the
 * real engine limits the compiled program to 10 MiB). Each has a clear error (reference §4.1).
 */

/** Limits applied while parsing and compiling expressions. */
export const ExpressionLimits = {
  /** Maximum expression length in characters (code points), as the API enforces. */
  maxLength: 4096,
  /** Maximum nesting depth (parentheses, `not`, quantifiers, calls), wirefilter's default. */
  maxDepth: 128,
  /** Maximum size of one compiled regex, in RE2 program instructions. */
  maxRegexInstructions: 100_000,
} as const;
