/**
 * How attribute values and expression changes are written in text and markdown: strings quoted
 * (expressions bare), objects as compact JSON, and changed expressions as a word-level diff (the
 * `diff` package) in git's `--word-diff=plain` notation, `[-removed-]{+added+}`, or in color.
 */
import { diffWords } from 'diff';
import type { AttributeValue } from '../change.js';
import type { Style } from './style.js';

/** Attributes shown bare rather than as JSON strings. */
const bare = new Set(['expression', 'action', 'skips', 'ruleset', 'filter', 'mode', 'sensitivity', 'action_mode', 'state', 'default_mode']);

/** One attribute value for display. */
export function formatAttributeValue(name: string, value: AttributeValue | undefined): string {
  if (value === undefined) return 'null';
  if (typeof value === 'string') return bare.has(name) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** A word-level diff of two expressions. */
export function wordDiff(before: string, after: string, style: Style): string {
  return diffWords(before, after)
    .map((part) => {
      if (part.added) return style.color ? style.green(part.value) : `{+${part.value}+}`;
      if (part.removed) return style.color ? style.red(part.value) : `[-${part.value}-]`;
      return part.value;
    })
    .join('');
}
