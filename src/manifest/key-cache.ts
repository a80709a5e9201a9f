/**
 * The plain map keys the fast reader has read in this process, by a hash of their text. A fleet's
 * manifests repeat their keys (`f17`, `r17`, `expression`), and a key taken from here is the very
 * string that earlier manifests used as a property name, which V8 has internalised: probing for it
 * and setting it on a section of 1,000 keys goes straight to the section's dictionary. A fresh copy
 * of the key is first looked up in V8's string table, once to probe (duplicate keys) and again to
 * set; in the CLI, whose string table holds the whole bundle's names, those lookups were a fifth of
 * reading a manifest. A direct-mapped cache: each slot keeps the last key whose hash falls in it.
 */
import { anyList, ownText } from './source.js';

/** Slots of the cache (a power of two): 8,192 keeps all 2,000 keys of a zone of 1,000 filters and rules but a few. */
const Slots = 8192;
const cached = anyList<string | undefined>(Slots);

/** The next value of a key hash after character code `c` (start from 0); `cachedKey` takes the result. */
export function hashStep(hash: number, c: number): number {
  return (Math.imul(hash, 31) + c) | 0;
}

/** `hashStep` over the characters of `text[at, stop)`. */
export function hashText(text: string, at: number, stop: number): number {
  let hash = 0;
  for (let i = at; i < stop; i++) hash = hashStep(hash, text.charCodeAt(i));
  return hash;
}

/**
 * The key written at `text[at, stop)` (not empty), whose hash (`hashStep` over its characters) is
 * `hash`: the cached string when it is the same text, else a new one, which is cached. Keys of 13
 * characters or more are kept as copies: a slice of the text would keep the whole manifest alive.
 */
export function cachedKey(text: string, at: number, stop: number, hash: number): string {
  const slot = hash & (Slots - 1);
  const known = cached[slot];
  if (known !== undefined && known.length === stop - at && text.startsWith(known, at)) return known;
  const key = ownText(text.slice(at, stop));
  cached[slot] = key;
  return key;
}
