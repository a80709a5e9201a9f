/**
 * Comparison of live expressions with desired ones by meaning. Desired expressions arrive canonical;
 * live ones are canonicalised here with `src/expr`, once per distinct text within one plan, so
 * notation and whitespace never show as changes. Each result also carries the expression's
 * equivalence key (set literals as sets: `{10.0.0.2 10.0.0.1}` and `{10.0.0.1 10.0.0.2 10.0.0.1}`
 * are one set), which is what the planner compares; the text it shows stays the canonical form of
 * what the user wrote. A live expression that does not parse is kept as an `unparsable` result: the
 * planner treats it as different and says so.
 */
import { canonicalForms } from '../expr/index.js';

/** The canonical form and equivalence key of a live expression, or why there are none. */
export type CanonicalResult = { ok: true; canonical: string; key: string } | { ok: false; reason: string };

/** Canonicalises expressions, memoised for the life of one plan. */
export type Canonicalizer = (source: string) => CanonicalResult;

/**
 * A memoising canonicalizer over `src/expr`'s `canonicalForms`. Texts already known canonical are
 * not parsed: the formatter is a fixed point of itself (`format(parse(format(e)))` is `format(e)`,
 * a property test of `src/expr`), so a live expression written as zonewall wrote it is known
 * canonical without parsing it again: the common case of a no-op plan. A text with a set literal is
 * known canonical when `keyOf` knows its equivalence key (the manifest check computed it for the
 * canonical texts it made, in the default phase: `checkedKeyOf`); one without is when it is one of
 * `canonical` (the desired side's expressions, as each kind lists them, formatted for the same
 * default phase), and is its own equivalence key (see `desiredKey`). Each is looked up at its first
 * call only, and `canonical` is read at the first text without a set that is not memoised yet: a
 * no-op plan compares equal texts first (`sameMeaning`) and may never read it, nor make a result
 * for each desired expression.
 */
export function createCanonicalizer(canonical: Iterable<string> = [], keyOf: (canonical: string) => string | undefined = () => undefined): Canonicalizer {
  const memo = new Map<string, CanonicalResult>();
  /** The texts of `canonical` without a set literal, made at the first lookup that needs them. */
  let plain: Set<string> | undefined;
  const known = (source: string): CanonicalResult | undefined => {
    if (source.includes('{')) {
      const key = keyOf(source);
      return key === undefined ? undefined : { ok: true, canonical: source, key };
    }
    if (plain === undefined) {
      plain = new Set();
      for (const text of canonical) if (!text.includes('{')) plain.add(text);
    }
    return plain.has(source) ? { ok: true, canonical: source, key: source } : undefined;
  };
  return (source) => {
    let r = memo.get(source);
    if (r === undefined) {
      r = known(source);
      if (r === undefined) {
        try {
          r = { ok: true, ...canonicalForms(source) };
        } catch (err) {
          r = { ok: false, reason: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
        }
      }
      memo.set(source, r);
    }
    return r;
  };
}

/** The key to compare an expression by: its equivalence key, else (it does not parse) the raw text. */
export function comparable(c: Canonicalizer, source: string): string {
  const r = c(source);
  return r.ok ? r.key : source;
}

/**
 * The key of a desired expression (already canonical): without a set literal (no `{`) it is the
 * text itself, so large plans parse desired expressions only when they hold a set.
 */
export function desiredKey(c: Canonicalizer, canonical: string): string {
  return canonical.includes('{') ? comparable(c, canonical) : canonical;
}

/**
 * True when a live expression means what a desired (checked) one means. Equal texts mean the same
 * without a parse: the common case of a no-op plan, set literals included (their keys need a parse).
 */
export function sameMeaning(c: Canonicalizer, live: string, desired: string): boolean {
  if (live === desired) return true;
  const r = c(live);
  if (!r.ok) return false;
  return r.canonical === desired || r.key === desiredKey(c, desired);
}

/**
 * A live expression as a compared attribute: the desired text when the two mean the same (so a
 * reordered set is no change), else the live canonical form, else the raw text.
 */
export function liveExpressionText(c: Canonicalizer, live: string, desired?: string): string {
  if (desired !== undefined && sameMeaning(c, live, desired)) return desired;
  const r = c(live);
  return r.ok ? r.canonical : live;
}
