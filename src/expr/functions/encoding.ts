/**
 * `decode_base64`, `encode_base64`, `sha256` and `uuidv4`: byte transformations on node:crypto and
 * Buffer. `encode_base64` flags: `u` URL-safe alphabet, `p` padded (default: standard, unpadded).
 * `uuidv4(seed)` is deterministic: the version-4 UUID formed from the first 16 bytes of the seed
 * (`cf.random_seed` in the service), so a test request gives a stable answer.
 */
import { createHash } from 'node:crypto';
import type { Value } from '../context.js';

type Args = readonly (Value | undefined)[];

/** `decode_base64(src)`: standard or URL-safe alphabet, padding optional. */
export function decodeBase64(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  if (s === undefined) return undefined;
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s)) return undefined;
  return Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
}

/** `encode_base64(src[, flags])`. */
export function encodeBase64(flags: string): (args: Args) => Value | undefined {
  const urlSafe = flags.includes('u');
  const padded = flags.includes('p');
  return (args) => {
    const s = args[0] as string | undefined;
    if (s === undefined) return undefined;
    let out = Buffer.from(s, 'latin1').toString(urlSafe ? 'base64url' : 'base64');
    out = out.replace(/=+$/, '');
    if (padded) out += '='.repeat((4 - (out.length % 4)) % 4);
    return out;
  };
}

/** `sha256(src)`: the 32-byte digest. */
export function sha256(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  return s === undefined ? undefined : createHash('sha256').update(Buffer.from(s, 'latin1')).digest().toString('latin1');
}

/** `uuidv4(seed)`. */
export function uuidv4(args: Args): Value | undefined {
  const seed = args[0] as string | undefined;
  if (seed === undefined || seed.length < 16) return undefined;
  const b = Buffer.from(seed.slice(0, 16), 'latin1');
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
