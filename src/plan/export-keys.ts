/**
 * Keys for exported objects. A key becomes the live object's `ref`, so it must be a valid manifest
 * key (1..50 characters, a letter or digit first, then letters, digits, `_`, `.`, `-`) and unique
 * in its namespace. An existing ref that is a valid key is kept; otherwise the key is a readable
 * slug of the description (lowercase `[a-z0-9-]`), else `<kind>-<first 8 characters of the id>`;
 * clashes get `-2`, `-3`, ... (trimmed so the key stays within 50 characters).
 */

/** Where an exported key came from. */
export type KeySource = 'ref' | 'description' | 'id';

/** The manifest key rules (schemas/zone-manifest.schema.json `$defs.key`). */
export const KeyRules = { maxLength: 50, pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/ } as const;

/** True when `text` can be written as a manifest key. */
export function isValidKey(text: string | undefined): text is string {
  return text !== undefined && text.length >= 1 && text.length <= KeyRules.maxLength && KeyRules.pattern.test(text);
}

/** A readable slug: lowercase, runs of other characters become `-`, at most 50 characters; '' when nothing is left. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, KeyRules.maxLength).replace(/-+$/, '');
}

/** Hands out unique keys within one namespace. */
export class KeyAllocator {
  private readonly used = new Set<string>();

  /** True when `key` is taken. */
  has(key: string): boolean {
    return this.used.has(key);
  }

  /** Claims `key` exactly; false when it is taken. */
  claim(key: string): boolean {
    if (this.used.has(key)) return false;
    this.used.add(key);
    return true;
  }

  /** Claims `base` or the first free `base-2`, `base-3`, ... within the length limit. */
  unique(base: string): string {
    if (this.claim(base)) return base;
    for (let n = 2; ; n++) {
      const suffix = `-${n}`;
      const key = `${base.slice(0, KeyRules.maxLength - suffix.length).replace(/-+$/, '')}${suffix}`;
      if (this.claim(key)) return key;
    }
  }
}

/**
 * A fresh key for an object whose ref cannot be kept: a slug of its description, else
 * `<prefix>-<id8>`.
 */
export function freshKey(keys: KeyAllocator, prefix: string, id: string, description: string | undefined): { key: string; from: KeySource } {
  const slug = slugify(description ?? '');
  if (slug !== '') return { key: keys.unique(slug), from: 'description' };
  return { key: keys.unique(`${prefix}-${slugify(id).slice(0, 8) || 'x'}`), from: 'id' };
}
