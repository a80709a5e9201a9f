/**
 * Maps a position inside an expression's value to a position in the YAML file. The expression
 * language reports offsets into the string it was given; the string may have been written plain,
 * quoted (with escapes such as `\"`), folded over several lines, or as a `|`/`>` block with
 * indentation. We align the value with the source text character by character: equal characters
 * match, escapes and `''` map to where they start, folded line breaks and indentation are skipped.
 * If the two cannot be aligned (a case we did not foresee), the start of the scalar is used: a
 * slightly vague position beats a wrong one.
 */
import type { Span } from './source.js';

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Escape lengths in double-quoted YAML after the backslash (`\x41` is 3 characters after `\`). */
const escapeLength: Record<string, number> = { x: 3, u: 5, U: 9 };

/**
 * The file offset of `valueOffset` within the scalar `span` whose parsed value is `value`.
 * An offset at or past the end maps to just after the last character of the value.
 */
export function mapValueOffset(text: string, span: Span, value: string, valueOffset: number): number {
  const region = contentRegion(text, span);
  if (region === undefined) return span.start;
  const target = Math.max(0, Math.min(valueOffset, value.length));
  let j = region.start;
  let lastEnd = region.start;
  for (let i = 0; i <= target && i < value.length; ) {
    if (j >= region.end) return span.start;
    const r = text[j];
    const v = value[i];
    let width = 1;
    if (span.style === 'double' && r === '\\') {
      const next = text[j + 1];
      if (next === '\n' || next === '\r') {
        // An escaped line break joins lines: skip it and the next line's indentation.
        j += 2;
        while (j < region.end && isSpace(text[j])) j++;
        continue;
      }
      width = 1 + (escapeLength[next] ?? 1);
    } else if (span.style === 'single' && r === "'") {
      width = 2;
    } else if (r !== v) {
      if (!isSpace(r)) return span.start;
      if (!isSpace(v)) { j++; continue; } // indentation or a folded line break
    }
    if (i === target) return j;
    lastEnd = j + width;
    j += width;
    i++;
  }
  return target >= value.length ? lastEnd : span.start;
}

/** The part of the source that holds the scalar's characters (without quotes or a block header). */
function contentRegion(text: string, span: Span): { start: number; end: number } | undefined {
  switch (span.style) {
    case 'plain':
      return { start: span.start, end: span.end };
    case 'single':
    case 'double':
      return { start: span.start + 1, end: Math.max(span.start + 1, span.end - 1) };
    case 'literal':
    case 'folded': {
      const lineEnd = text.indexOf('\n', span.start);
      return lineEnd === -1 || lineEnd >= span.end ? undefined : { start: lineEnd + 1, end: span.end };
    }
    default:
      return undefined;
  }
}
