/**
 * Reading Terraform attributes across provider versions. State stores unset values differently by
 * provider generation: SDKv2 resources (v3, most of v4) store `""`, `0` and single nested blocks as
 * one-element lists; plugin-framework resources (v5) store `null` and objects. These helpers turn
 * all of that into plain optional values, and turn resource names into manifest keys.
 */

/** A plain object attribute, unwrapping a one-element list (an SDKv2 nested block). */
export function obj(value: unknown): Record<string, unknown> | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
}

/** A list attribute (a set or list of blocks); an absent or null one is empty. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string attribute; `""` and null (unset) are undefined. */
export function str(attrs: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = attrs?.[key];
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** A number attribute; `0` (SDKv2's unset) and null are undefined. */
export function num(attrs: Record<string, unknown> | undefined, key: string): number | undefined {
  const v = attrs?.[key];
  if (typeof v === 'number') return v === 0 ? undefined : v;
  if (typeof v === 'string' && v !== '' && Number.isFinite(Number(v))) return Number(v) === 0 ? undefined : Number(v);
  return undefined;
}

/** A boolean attribute; null is undefined. */
export function bool(attrs: Record<string, unknown> | undefined, key: string): boolean | undefined {
  const v = attrs?.[key];
  return typeof v === 'boolean' ? v : undefined;
}

/**
 * Whether an override is enabled: v3's `status` (`enabled`/`disabled`, `""` unset) wins over the
 * `enabled` bool, which v3 kept only as a deprecated alias.
 */
export function enabledOf(attrs: Record<string, unknown> | undefined): boolean | undefined {
  if (attrs !== undefined && 'status' in attrs) {
    const status = str(attrs, 'status');
    return status === undefined ? undefined : status === 'enabled';
  }
  return bool(attrs, 'enabled');
}

/** The manifest key pattern (schema `$defs/key`). */
export const KeyPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** The longest manifest key. */
export const KeyMaxLength = 50;

/** Whether a string can be a manifest key as it is. */
export function isKey(value: string | undefined): value is string {
  return value !== undefined && value.length <= KeyMaxLength && KeyPattern.test(value);
}

/** A manifest key made from free text: lower case, runs of other characters become `-`. */
export function slug(text: string): string | undefined {
  const s = text.toLowerCase().replace(/[^a-z0-9_.]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, KeyMaxLength).replace(/[-_.]+$/, '');
  return s === '' ? undefined : s;
}

/** Picks the first usable key among candidates, made unique against `taken` with `-2`, `-3`... */
export function uniqueKey(candidates: (string | undefined)[], taken: Set<string>, fallback: string): string {
  const base = candidates.find((c) => c !== undefined && isKey(c)) ?? fallback;
  let key = base;
  for (let n = 2; taken.has(key); n += 1) {
    const suffix = `-${n}`;
    key = base.slice(0, KeyMaxLength - suffix.length) + suffix;
  }
  taken.add(key);
  return key;
}

/**
 * The key candidates an instance's address gives: a `for_each` key as it is (or its slug), a
 * `count` index as `NAME-INDEX`. These are stable across runs (the address does not move when
 * another rule is added or a description edited), so they come before description slugs.
 */
export function instanceKeys(name: string, indexKey: string | number | undefined): (string | undefined)[] {
  if (typeof indexKey === 'string') return [indexKey, slug(indexKey)];
  if (typeof indexKey === 'number') {
    const base = slug(name) ?? 'item';
    return [`${base.slice(0, KeyMaxLength - String(indexKey).length - 1)}-${indexKey}`];
  }
  return [];
}
