/**
 * The fast reader's line table (`fast-reader.ts` extends it): where each line of the text starts,
 * where its content starts (after the indentation) and where it ends, in three typed arrays built in
 * one pass over the line index, and the current line with the questions the block reader asks of
 * it (indentation, the next significant line, a list item). A base class rather than a field, so
 * the reader reads the arrays as its own fields, as before.
 */
import { skipSpaces } from './fast-scalars.js';
import type { LineIndex } from './source.js';

/** The lines of one text, and the line being read. */
export class LineTable {
  protected readonly count: number;
  protected readonly starts: Int32Array;
  protected readonly contents: Int32Array;
  protected readonly ends: Int32Array;
  protected li = 0;

  constructor(protected readonly text: string, lines: LineIndex) {
    // One entry per line; no phantom empty line after a final line break.
    const s = lines.starts;
    const count = s[s.length - 1] >= text.length ? s.length - 1 : s.length;
    this.count = count;
    // The line index's own starts (it may hold one more, after a final line break): no copy.
    this.starts = s;
    this.contents = new Int32Array(count);
    this.ends = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const end = i + 1 < s.length ? s[i + 1] - 1 : text.length;
      this.contents[i] = skipSpaces(text, s[i], end);
      this.ends[i] = end;
    }
  }

  protected indent(line: number): number {
    return this.contents[line] - this.starts[line];
  }

  /** The next line that is not blank or a comment (not consumed); -1 at the end. */
  protected significant(): number {
    while (this.li < this.count && (this.contents[this.li] === this.ends[this.li] || this.text.charCodeAt(this.contents[this.li]) === 35)) this.li++;
    return this.li < this.count ? this.li : -1;
  }

  protected isSeqItem(line: number): boolean {
    const c = this.contents[line];
    return this.text.charCodeAt(c) === 45 && (c + 1 === this.ends[line] || this.text.charCodeAt(c + 1) === 32);
  }
}
