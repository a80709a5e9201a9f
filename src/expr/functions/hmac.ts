/**
 * `is_timed_hmac_valid_v0(key, messageMAC, ttl, now[, separatorLength][, flags])`: validates a token
 * of the form `<message><separator><timestamp>-<mac>`, where `mac` is the base64 HMAC-SHA256 of
 * `<message><timestamp>` under `key` (URL-encoded or URL-safe base64 accepted), the timestamp is Unix
 * seconds, and the token is valid while `now - timestamp <= ttl` (and not from the future).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Value } from '../context.js';

type Args = readonly (Value | undefined)[];

function normaliseMac(mac: string): Buffer | undefined {
  let text = mac;
  try {
    text = decodeURIComponent(mac);
  } catch {
    return undefined;
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** `is_timed_hmac_valid_v0`. */
export function isTimedHmacValidV0(args: Args): Value | undefined {
  const key = args[0] as string;
  const token = args[1] as string | undefined;
  const ttl = args[2] as number;
  const now = args[3] as number | undefined;
  const sepLen = args[4] as number | undefined;
  if (token === undefined || now === undefined) return undefined;
  const dash = token.lastIndexOf('-');
  if (dash < 0) return false;
  const stamp = /(\d+)$/.exec(token.slice(0, dash));
  if (!stamp) return false;
  const timestamp = Number(stamp[1]);
  const messageEnd = dash - stamp[1]!.length - (sepLen ?? 0);
  if (messageEnd < 0) return false;
  const message = token.slice(0, messageEnd);
  const mac = normaliseMac(token.slice(dash + 1));
  if (!mac) return false;
  const expected = createHmac('sha256', Buffer.from(key, 'latin1'))
    .update(Buffer.from(message + stamp[1], 'latin1'))
    .digest();
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return false;
  return timestamp <= now && now - timestamp <= ttl;
}
