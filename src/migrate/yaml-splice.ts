/**
 * Splicing new top-level sections into a manifest's text: the `yaml` Document API locates the
 * top-level pairs (with their source ranges), new sections are rendered on their own, and the text
 * is edited around them, so comments, quoting and spacing elsewhere stay as the user wrote them.
 * Shared by the previous-WAF rewrite and the firewall rules rewrite.
 */
import { Document, isMap, isScalar } from 'yaml';
import type { Pair, YAMLMap } from 'yaml';
import { ZonewallError } from '../errors.js';

/** One text replacement: [start, end) of the original becomes `text`. */
export interface Edit { start: number; end: number; text: string }

/** A top-level pair with its key name. */
export type TopPair = Pair<unknown, unknown> & { key: { value: unknown; range?: [number, number, number] | null } };

/** Finds a top-level key of the document's mapping. */
export function findPair(map: YAMLMap, name: string): TopPair | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === name) as TopPair | undefined;
}

/** Start of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Whether the source indents sequences under their key (`key:\n  - x`) or not (`key:\n- x`). */
export function indentsSequences(text: string): boolean {
  return !/^([A-Za-z_][\w-]*):[ \t]*\r?\n-[ \t]/m.test(text);
}

/**
 * The span a top-level pair occupies, from the start of its line (and of the comment lines directly
 * above it, when `withCommentsAbove`) to the end of its value, leaving trailing blank lines and
 * column-0 comments outside.
 */
export function pairSpan(text: string, pair: TopPair, withCommentsAbove: boolean): [number, number] {
  const keyRange = pair.key.range;
  const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range;
  if (!keyRange) throw new ZonewallError('ERR_INTERNAL', 'manifest rewrite: a top-level key has no source range');
  let start = lineStart(text, keyRange[0]);
  if (withCommentsAbove) {
    while (start > 0) {
      const above = lineStart(text, start - 1);
      if (!/^[ \t]*#/.test(text.slice(above, start))) break;
      start = above;
    }
  }
  let end = valueRange ? valueRange[2] : keyRange[2];
  const nl = text.indexOf('\n', end - 1);
  if (end > 0 && text[end - 1] !== '\n') end = nl === -1 ? text.length : nl + 1;
  // Give back trailing blank lines and column-0 comments: they belong to what follows.
  for (;;) {
    const last = lineStart(text, end - 1 < start ? start : end - 1);
    if (last <= start) break;
    const line = text.slice(last, end);
    if (!/^(#.*)?\r?\n?$/.test(line) && line.trim() !== '') break;
    end = last;
  }
  return [start, end];
}

/** Applies edits (non-overlapping) to the text. */
export function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  // Last first, so earlier offsets stay valid; at one offset the removal runs before the insertion.
  for (const e of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** An edit replacing a pair's span (with the comments above it) by `replacement`. */
export function spanEdit(text: string, pair: TopPair, replacement: string): Edit {
  const [start, end] = pairSpan(text, pair, true);
  // A section removed from between two blank lines takes one of them along.
  const blankAfter = /^[ \t]*\r?\n/.exec(text.slice(end));
  const blankBefore = start === 0 || /\n[ \t]*\r?\n$/.test(text.slice(0, start));
  const extra = replacement === '' && blankAfter !== null && blankBefore ? blankAfter[0].length : 0;
  return { start, end: end + extra, text: replacement };
}

/**
 * Renders top-level `key: value` pairs as block YAML in the file's sequence indentation and line
 * endings; nothing for no pairs. `shape` adjusts the document before it is printed (flow styles).
 */
export function renderPairs(pairs: [string, unknown][], text: string, comment?: string, shape?: (doc: Document) => void): string {
  if (pairs.length === 0) return '';
  // A Map keeps the pairs' order; an object would list keys like "20" before "3" and both first.
  const doc = new Document(new Map(pairs));
  shape?.(doc);
  if (comment !== undefined && isMap(doc.contents)) {
    const first = doc.contents.items[0];
    // Above a comment the shape gave the first key, not in its place.
    if (first !== undefined && isScalar(first.key)) first.key.commentBefore = first.key.commentBefore ? `${comment}\n${first.key.commentBefore}` : comment;
  }
  const rendered = doc.toString({ indentSeq: indentsSequences(text), lineWidth: 0 });
  // Keep the file's line endings.
  return text.includes('\r\n') ? rendered.replace(/\r?\n/g, '\r\n') : rendered;
}
