/**
 * Canonical comparison of live expressions. Desired expressions arrive canonical; live ones are
 * canonicalised here with `src/expr`, once per distinct text within one plan, so notation and
 * whitespace never show as changes. A live expression that does not parse is kept as an
 * `unparsable` result: the planner treats it as different and says so.
 */
import { canonicalize } from '../expr/index.js';

/** The canonical form of a live expression, or why there is none. */
export type CanonicalResult = { ok: true; canonical: string } | { ok: false; reason: string };

/** Canonicalises expressions, memoised for the life of one plan. */
export type Canonicalizer = (source: string) => CanonicalResult;

/**
 * A memoising canonicalizer over `src/expr`'s `canonicalize`. `canonical` seeds the memo with texts
 * already in canonical form (the desired side's filter and custom rule expressions, formatted for the
 * same default phase): the formatter is a fixed point of itself (`format(parse(format(e)))` is
 * `format(e)`, a property test of `src/expr`), so a live expression written as zonewall wrote it
 * is known canonical without parsing it again: the common case of a no-op plan.
 */
export function createCanonicalizer(canonical: Iterable<string> = []): Canonicalizer {
  const memo = new Map<string, CanonicalResult>();
  for (const text of canonical) memo.set(text, { ok: true, canonical: text });
  return (source) => {
    let r = memo.get(source);
    if (r === undefined) {
      try {
        r = { ok: true, canonical: canonicalize(source) };
      } catch (err) {
        r = { ok: false, reason: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
      }
      memo.set(source, r);
    }
    return r;
  };
}

/** The text to compare a live expression by: its canonical form, else the raw text. */
export function comparable(c: Canonicalizer, source: string): string {
  const r = c(source);
  return r.ok ? r.canonical : source;
}
