/**
 * The token of a SQL query as the tokenizer (`sql-parse.ts`) makes it and the passes over a
 * statement's tokens read it (`sql-limits.ts`, `sql-errors.ts`). The tokenizer calls the limits
 * pass, so the shape lives below both.
 */

/** The kinds of token. */
export type TokenType = 'space' | 'comment' | 'string' | 'qident' | 'word' | 'param' | 'semi' | 'other';

/** One token of a query: its kind, text and offsets in the query string. */
export interface Token {
  type: TokenType;
  text: string;
  start: number;
  end: number;
}
