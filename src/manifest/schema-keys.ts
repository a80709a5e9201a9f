/**
 * The keys of the keyed sections (`filters`, `firewall_rules`, ... : maps whose `propertyNames` is
 * `$defs/key`), checked by hand for the schema's fast path (`schema-quick.ts`). ajv checks a map's
 * keys in a pass of their own (a second walk over each section, beside the one over its values)
 * and runs the key pattern on each: a tenth of validating 1,000 filters and 1,000 rules. Here each
 * key is one loop over its characters, over the keys the reader wrote down. Used only when
 * `$defs/key` is exactly the definition this file implements (`keyedSections`); otherwise ajv keeps
 * checking the keys. The full validator (issues) never depends on this.
 */
import type { AnySchemaObject } from 'ajv/dist/ajv.js';

/** Keywords that only annotate: no effect on what is valid (ajv's `useDefaults` is off). */
export const Annotations: ReadonlySet<string> = new Set(['description', 'title', 'default', 'examples', 'errorMessage', 'patternErrorMessage', 'tsType',
  '$comment', 'deprecated', 'readOnly', 'writeOnly', '$schema', '$id', '$defs']);

/** `$defs/key` as `isManifestKey` implements it (validating keywords only). */
const KeyDefinition = { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' } as const;
const KeyRef = '#/$defs/key';

/** True when `c` is `[A-Za-z0-9]`. */
function isAlphanumeric(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/**
 * True when `key` is a manifest key: `$defs/key`, 1 to 50 characters of `[A-Za-z0-9][A-Za-z0-9_.-]*`
 * (ASCII only, so its length is the same in code points, as the full validator counts, and in UTF-16 units).
 */
export function isManifestKey(key: string): boolean {
  const n = key.length;
  if (n === 0 || n > KeyDefinition.maxLength || !isAlphanumeric(key.charCodeAt(0))) return false;
  for (let i = 1; i < n; i++) {
    const c = key.charCodeAt(i);
    if (!isAlphanumeric(c) && c !== 95 && c !== 46 && c !== 45) return false;
  }
  return true;
}

/** True when the schema's `$defs/key` says what `isManifestKey` checks, no more, no less. */
function keyDefinitionMatches(schema: AnySchemaObject): boolean {
  const key = (schema.$defs as Record<string, AnySchemaObject> | undefined)?.key;
  if (typeof key !== 'object' || key === null) return false;
  const validating = Object.keys(key).filter((k) => !Annotations.has(k));
  return validating.length === Object.keys(KeyDefinition).length
    && validating.every((k) => key[k] === KeyDefinition[k as keyof typeof KeyDefinition]);
}

/**
 * The top-level properties of `schema` whose keys are `$defs/key` (`propertyNames: {$ref}` alone),
 * which the fast path leaves to `sectionKeysValid`; none when `$defs/key` is not the definition
 * `isManifestKey` implements.
 */
export function keyedSections(schema: AnySchemaObject): string[] {
  if (!keyDefinitionMatches(schema)) return [];
  const properties = (schema.properties ?? {}) as Record<string, AnySchemaObject | boolean>;
  return Object.keys(properties).filter((name) => {
    const names = (properties[name] as AnySchemaObject).propertyNames as AnySchemaObject | undefined;
    return typeof names === 'object' && names !== null && Object.keys(names).length === 1 && names.$ref === KeyRef;
  });
}

/**
 * True when every key of the maps at `data[section]` (each of `sections`) is a manifest key. For
 * data the fast path accepted: each section is absent or a map. `keysOf` gives a map's own keys
 * (in any order).
 */
export function sectionKeysValid(data: unknown, sections: readonly string[], keysOf: (map: object) => readonly string[] = Object.keys): boolean {
  if (typeof data !== 'object' || data === null) return true;
  for (const section of sections) {
    const map = (data as Record<string, unknown>)[section];
    if (typeof map !== 'object' || map === null) continue;
    const keys = keysOf(map);
    for (let i = 0; i < keys.length; i++) if (!isManifestKey(keys[i])) return false;
  }
  return true;
}
