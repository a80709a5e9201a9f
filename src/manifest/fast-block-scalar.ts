/**
 * The fast reader's `|` and `>` block scalars (no indentation indicator, no whitespace-only lines;
 * anything else is left to the `yaml` package: `Bail`). A class between the line table
 * (`fast-lines.ts`) and the reader (`fast-reader.ts` extends it), so it reads the line arrays as
 * the reader's own fields; it leaves the scalar's span with the reader (`setNode`).
 */
import { LineTable } from './fast-lines.js';
import { bail, expectLineEnd } from './fast-scalars.js';
import { StyleCode } from './positions.js';

/** The line table, and the block scalars read over its lines. */
export abstract class BlockScalarLines extends LineTable {
  /** Leaves the span and style of the node just read for the reader's caller. */
  protected abstract setNode(start: number, end: number, style: number): void;

  /** A `|` or `>` block scalar at `at` (the indicator); `col` is its owner's indentation. */
  protected blockScalar(at: number, col: number): string {
    const t = this.text;
    const chomp = t[at + 1] === '-' || t[at + 1] === '+' ? t[at + 1] : '';
    expectLineEnd(t, at + 1 + chomp.length, this.ends[this.li]);
    const body: number[] = []; // line numbers; -1 for a blank line
    let blankRun = 0;
    let lastIndex = this.li;
    for (let i = this.li + 1; i < this.count; i++) {
      if (this.contents[i] === this.ends[i]) {
        if (this.indent(i) > 0 || body.length === 0) bail();
        blankRun++;
        continue;
      }
      if (this.indent(i) <= col) break;
      if (body.length > 0 && this.indent(i) < this.indent(body[0])) bail(); // less indented than the content: an error
      for (; blankRun > 0; blankRun--) body.push(-1);
      body.push(i);
      lastIndex = i;
    }
    if (body.length === 0) bail();
    const indent = this.indent(body[0]);
    const texts = body.map((l) => (l < 0 ? '' : t.slice(this.starts[l] + indent, this.ends[l])));
    let value: string;
    if (t[at] === '|') value = texts.join('\n');
    else {
      if (body.some((l) => l < 0 || this.indent(l) !== indent)) bail(); // folding of blank or more-indented lines
      value = texts.join(' ');
    }
    const last = body[body.length - 1];
    this.li = lastIndex + 1;
    let end = Math.min(this.ends[last] + 1, t.length);
    if (chomp === '+') {
      value += '\n'.repeat(1 + blankRun);
      this.li += blankRun;
      end = Math.min(end + blankRun, t.length);
    } else if (chomp === '') value += '\n';
    this.setNode(at, end, t[at] === '|' ? StyleCode.literal : StyleCode.folded);
    return value;
  }
}
