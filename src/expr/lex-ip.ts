/**
 * Lexers of IP literals (wirefilter `rhs_types/ip.rs` with the `cidr` crate's errors): an address
 * for `==`/`!=` (the token is every character of `[0-9a-fA-F:./]`, so `ip.src == 1.2.3.0/24` is an
 * address error: CIDRs belong in sets), and set items: address, `addr/len` with zero host bits, or
 * `a..b` of one family with `a <= b`. Values are canonical text (`formatIp`).
 */
import { fail } from './errors.js';
import { formatIp, ipBits, networkAddress, parseIp } from './ip.js';
import { isHexCode, takeWhile, type Lexed } from './lex.js';

/** `[0-9a-fA-F:./]`. */
const IP_CHAR = (code: number): boolean => isHexCode(code) || code === 58 || code === 46 || code === 47;
const BAD_ADDRESS = "couldn't parse address in network: invalid IP address syntax";

/** An IP address literal (comparisons with `==`/`!=`). Value: canonical text. */
export function lexIpAddress(src: string, pos: number): Lexed<string> {
  const end = takeWhile(src, pos, IP_CHAR, 'IP address character');
  const ip = parseIp(src.slice(pos, end));
  if (ip === undefined) fail('ParseNetwork', BAD_ADDRESS, pos, end);
  return { value: formatIp(ip), end };
}

/** An IP set item: an address, `addr/len` (host bits zero) or `a..b` (same family, a <= b). */
export type IpSetItem =
  | { kind: 'ip'; value: string }
  | { kind: 'cidr'; address: string; prefix: number }
  | { kind: 'range'; start: string; end: string };

/** An IP set item. */
export function lexIpSetItem(src: string, pos: number): Lexed<IpSetItem> {
  const end = takeWhile(src, pos, IP_CHAR, 'IP address character');
  const chunk = src.slice(pos, end);
  const dots = chunk.indexOf('..');
  if (dots >= 0) {
    const a = parseIp(chunk.slice(0, dots));
    if (a === undefined) fail('ParseNetwork', BAD_ADDRESS, pos, pos + dots);
    const b = parseIp(chunk.slice(dots + 2));
    if (b === undefined) fail('ParseNetwork', BAD_ADDRESS, pos + dots + 2, end);
    if (typeof a !== typeof b || a > b) fail('IncompatibleRangeBounds', 'incompatible range bounds', pos, end);
    return { value: { kind: 'range', start: formatIp(a), end: formatIp(b) }, end };
  }
  const slash = chunk.indexOf('/');
  const addrText = slash < 0 ? chunk : chunk.slice(0, slash);
  const ip = parseIp(addrText);
  if (ip === undefined) fail('ParseNetwork', BAD_ADDRESS, pos, pos + addrText.length);
  if (slash < 0) return { value: { kind: 'ip', value: formatIp(ip) }, end };
  const lenText = chunk.slice(slash + 1);
  if (!/^[0-9]+$/.test(lenText) || Number(lenText) > 255) {
    const why = lenText === '' ? 'cannot parse integer from empty string' : /^[0-9]+$/.test(lenText) ? 'number too large to fit in target type' : 'invalid digit found in string';
    fail('ParseNetwork', `couldn't parse length in network: ${why}`, pos + slash + 1, end);
  }
  const prefix = Number(lenText);
  const bits = ipBits(ip);
  if (prefix > bits) {
    fail('ParseNetwork', `invalid length for network: Network length ${prefix} is too long for Ipv${bits === 32 ? 4 : 6} (maximum: ${bits})`, pos, end);
  }
  if (networkAddress(ip, prefix) !== ip) fail('ParseNetwork', 'host part of address was not zero', pos, pos + addrText.length);
  return { value: { kind: 'cidr', address: formatIp(ip), prefix }, end };
}

