/**
 * IP addresses for the lexer and the evaluator. An IPv4 address is a number (0..2^32-1), an IPv6
 * address a bigint (0..2^128-1): the two families never compare equal or ordered (wirefilter
 * `strict_partial_ord.rs`), and `typeof` tells them apart at no cost. `::ffff:1.2.3.4` stays IPv6,
 * as in the real engine (no IPv4-mapped conversion). Parsing follows Rust's `IpAddr::from_str`
 * (no leading zeros in IPv4 octets, no zone ids, at most one `::`).
 */

/** An IP address value: number for IPv4, bigint for IPv6. */
export type IpValue = number | bigint;

/**
 * Parses an IPv4 dotted quad (`^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$`, each at most 255);
 * undefined when invalid (leading zeros are invalid, as in Rust). Read digit by digit: every IP
 * literal of every expression comes here, and a match array of four substrings cost more.
 */
export function parseIpv4(text: string): number | undefined {
  let n = 0;
  let p = 0;
  for (let octet = 0; octet < 4; octet++) {
    if (octet > 0 && text.charCodeAt(p++) !== 46) return undefined;
    const start = p;
    let v = 0;
    for (let c = text.charCodeAt(p); c >= 48 && c <= 57 && p - start < 3; c = text.charCodeAt(++p)) v = v * 10 + c - 48;
    if (p === start || (p - start > 1 && text.charCodeAt(start) === 48) || v > 255) return undefined;
    n = n * 256 + v;
  }
  return p === text.length ? n : undefined;
}

/** Parses an IPv6 address (with optional embedded IPv4 tail); undefined when invalid. */
export function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const dbl = text.indexOf('::');
  if (dbl >= 0 && text.indexOf('::', dbl + 1) >= 0) return undefined;
  let groups: number[];
  if (dbl < 0) {
    const all = parseGroups(text, true);
    if (!all || all.length !== 8) return undefined;
    groups = all;
  } else {
    const head = parseGroups(text.slice(0, dbl), false);
    const tail = parseGroups(text.slice(dbl + 2), true);
    if (!head || !tail || head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  let n = 0n;
  for (const g of groups) n = (n << 16n) | BigInt(g);
  return n;
}

function parseGroups(text: string, allowV4Tail: boolean): number[] | undefined {
  if (text === '') return [];
  const parts = text.split(':');
  const out: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.includes('.')) {
      const v4 = allowV4Tail && i === parts.length - 1 ? parseIpv4(part) : undefined;
      if (v4 === undefined) return undefined;
      out.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) {
      out.push(parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return out;
}

/** Parses either family; undefined when invalid. */
export function parseIp(text: string): IpValue | undefined {
  return text.includes(':') ? parseIpv6(text) : parseIpv4(text);
}

/** Canonical text of an address: dotted quad, or RFC 5952 (`::ffff:1.2.3.4` for mapped). */
export function formatIp(ip: IpValue): string {
  if (typeof ip === 'number') {
    return `${ip >>> 24}.${(ip >>> 16) & 255}.${(ip >>> 8) & 255}.${ip & 255}`;
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((ip >> BigInt(i * 16)) & 0xffffn));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${formatIp(Number(ip & 0xffffffffn))}`;
  }
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** The bit width of the address family. */
export function ipBits(ip: IpValue): 32 | 128 {
  return typeof ip === 'number' ? 32 : 128;
}

/** The first address of `ip/prefix` (host bits cleared). */
export function networkAddress(ip: IpValue, prefix: number): IpValue {
  if (typeof ip === 'number') {
    if (prefix <= 0) return 0;
    if (prefix >= 32) return ip;
    const hostBits = 2 ** (32 - prefix);
    return Math.floor(ip / hostBits) * hostBits;
  }
  if (prefix <= 0) return 0n;
  if (prefix >= 128) return ip;
  const shift = BigInt(128 - prefix);
  return (ip >> shift) << shift;
}

/** The last address of `ip/prefix` (host bits set). */
export function lastAddress(ip: IpValue, prefix: number): IpValue {
  if (typeof ip === 'number') {
    if (prefix >= 32) return ip;
    return (networkAddress(ip, prefix) as number) + 2 ** (32 - Math.max(0, prefix)) - 1;
  }
  if (prefix >= 128) return ip;
  const shift = BigInt(128 - Math.max(0, prefix));
  return (networkAddress(ip, prefix) as bigint) | ((1n << shift) - 1n);
}
