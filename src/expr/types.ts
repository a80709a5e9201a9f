/**
 * The value types of the Rules language (wirefilter `types.rs`): `Bool`, `Int` (i64), `Bytes`
 * (the docs' "String"), `Ip` (v4 or v6), `Array<T>` and `Map<T>` (string keys). Types are plain
 * frozen objects so they can be compared structurally and printed the way the real engine prints
 * them in its messages (`Array<Bool>`, `Map<Array<Bytes>>`).
 */

/** A scalar type name. */
export type ScalarKind = 'Bool' | 'Int' | 'Bytes' | 'Ip';

/** A value type of the language. */
export type Type =
  | { readonly kind: ScalarKind }
  | { readonly kind: 'Array'; readonly of: Type }
  | { readonly kind: 'Map'; readonly of: Type };

/** The scalar types, shared instances. */
export const T = {
  Bool: Object.freeze({ kind: 'Bool' }) as Type,
  Int: Object.freeze({ kind: 'Int' }) as Type,
  Bytes: Object.freeze({ kind: 'Bytes' }) as Type,
  Ip: Object.freeze({ kind: 'Ip' }) as Type,
} as const;

/** `Array<of>`. */
export function arrayOf(of: Type): Type {
  return Object.freeze({ kind: 'Array', of });
}

/** `Map<of>` (keys are strings). */
export function mapOf(of: Type): Type {
  return Object.freeze({ kind: 'Map', of });
}

/** Structural type equality. */
export function sameType(a: Type, b: Type): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'Array' || a.kind === 'Map') return sameType(a.of, (b as { of: Type }).of);
  return true;
}

/** The element type of an array or map, or undefined for scalars. */
export function elementType(t: Type): Type | undefined {
  return t.kind === 'Array' || t.kind === 'Map' ? t.of : undefined;
}

/** Prints a type like the real engine's messages do: `Bytes`, `Array<Bool>`, `Map<Array<Bytes>>`. */
export function typeName(t: Type): string {
  return t.kind === 'Array' || t.kind === 'Map' ? `${t.kind}<${typeName(t.of)}>` : t.kind;
}

/** Parses `typeName` output back into a type (used by the catalog tables); throws on bad input. */
export function parseTypeName(name: string): Type {
  const m = /^(Array|Map)<(.+)>$/.exec(name);
  if (m) return m[1] === 'Array' ? arrayOf(parseTypeName(m[2]!)) : mapOf(parseTypeName(m[2]!));
  if (name === 'Bool' || name === 'Int' || name === 'Bytes' || name === 'Ip') return T[name];
  throw new Error(`unknown type name ${JSON.stringify(name)}`);
}
