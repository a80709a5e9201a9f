/**
 * Account lists: the rules an item follows, written once so that the engine (which stores items)
 * and the client (which compares the manifest's items with the live ones) agree on what an item is
 * and on its one normal form (security-phases.md §2). A list read back from the service normalises
 * to exactly what the manifest normalises to, so it plans nothing.
 *
 * - IP lists: IPv4 addresses, IPv4 CIDRs /8–/32 and IPv6 CIDRs /4–/64. A single IPv6 address is
 *   stored as its /64. IPv6 is lower-cased and written in its shortest form (RFC 5952). A CIDR
 *   with host bits set is refused (the network is suggested); `/32` is the address itself.
 * - Hostname lists: FQDNs, lower-cased, with an optional `*.` prefix, without a trailing dot.
 * - ASN lists: integers 0–4294967295 (`AS13335` and `"13335"` are accepted and become 13335).
 * - Redirect lists hold bulk redirects; they are not used in expressions and not checked here.
 */
import type { ListKind } from './lists.js';

/** Limits on item values. */
export const ListItemLimits = {
  ipv4MinPrefix: 8,
  ipv6MinPrefix: 4,
  ipv6MaxPrefix: 64,
  asnMax: 4_294_967_295,
} as const;

/** A normalised item value: a string for IP and hostname lists, a number for ASN lists. */
export type ListItemValue = string | number;

/** The outcome of normalising one item. */
export type NormalizedItem = { ok: true; value: ListItemValue } | { ok: false; reason: string };

/** The kind of field a list of `kind` may be compared with (`ip.src in $office`): the field's type. */
export const ListFieldTypes: Readonly<Record<Exclude<ListKind, 'redirect'>, 'Ip' | 'Bytes' | 'Int'>> = {
  ip: 'Ip', hostname: 'Bytes', asn: 'Int',
};

/**
 * The normal form of an item of a list of `kind`, or why it is not one.
 * @example normalizeListItem('ip', '2001:DB8::1') // { ok: true, value: '2001:db8::/64' }
 */
export function normalizeListItem(kind: ListKind, raw: unknown): NormalizedItem {
  switch (kind) {
    case 'ip': return typeof raw === 'string' ? normalizeIpItem(raw.trim()) : bad('must be an IP address or CIDR (a string)');
    case 'hostname': return typeof raw === 'string' ? normalizeHostname(raw.trim()) : bad('must be a hostname (a string)');
    case 'asn': return normalizeAsn(raw);
    case 'redirect': return typeof raw === 'string' ? { ok: true, value: raw } : bad('must be a string');
  }
}

/** The key two items are compared by: equal for items equal after normalisation. */
export function listItemKey(value: ListItemValue): string {
  return typeof value === 'number' ? `#${value}` : value;
}

function bad(reason: string): NormalizedItem {
  return { ok: false, reason };
}

function normalizeAsn(raw: unknown): NormalizedItem {
  let n: number | undefined;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && /^(?:AS)?\d{1,10}$/i.test(raw.trim())) n = Number(raw.trim().replace(/^AS/i, ''));
  if (n === undefined || !Number.isInteger(n) || n < 0 || n > ListItemLimits.asnMax) {
    return bad(`must be an AS number, an integer from 0 to ${ListItemLimits.asnMax}`);
  }
  return { ok: true, value: n };
}

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function normalizeHostname(raw: string): NormalizedItem {
  let host = raw.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  const wild = host.startsWith('*.');
  const rest = wild ? host.slice(2) : host;
  if (rest.length === 0 || host.length > 253) return bad('must be a hostname (at most 253 characters), optionally starting with "*."');
  const labels = rest.split('.');
  if (labels.length < 2 || !labels.every((l) => label.test(l))) {
    return bad('must be a fully qualified hostname such as "app.example.com" or "*.example.com" (labels of letters, digits and "-"; "*" only as the whole first label)');
  }
  if (/^\d+$/.test(labels[labels.length - 1]!)) return bad('must be a hostname, not an IP address');
  return { ok: true, value: host };
}

function normalizeIpItem(raw: string): NormalizedItem {
  const slash = raw.indexOf('/');
  const address = slash < 0 ? raw : raw.slice(0, slash);
  const prefixText = slash < 0 ? undefined : raw.slice(slash + 1);
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return bad('must be an IP address or CIDR: the prefix length after "/" is a number');
  const prefix = prefixText === undefined ? undefined : Number(prefixText);
  const v4 = parseIpv4(address);
  if (v4 !== undefined) {
    if (prefix === undefined || prefix === 32) return { ok: true, value: formatIpv4(v4) };
    if (prefix < ListItemLimits.ipv4MinPrefix || prefix > 32) return bad(`IPv4 CIDRs must be /${ListItemLimits.ipv4MinPrefix} to /32 (got /${prefix})`);
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    const network = (v4 & mask) >>> 0;
    if (network !== v4) return bad(`host bits are set: the network of ${raw} is ${formatIpv4(network)}/${prefix}`);
    return { ok: true, value: `${formatIpv4(v4)}/${prefix}` };
  }
  const v6 = parseIpv6(address);
  if (v6 === undefined) return bad('must be an IPv4 address, an IPv4 CIDR (/8–/32) or an IPv6 CIDR (/4–/64)');
  const bits = prefix ?? 64;
  if (prefix !== undefined && (prefix < ListItemLimits.ipv6MinPrefix || prefix > ListItemLimits.ipv6MaxPrefix)) {
    return bad(`IPv6 CIDRs must be /${ListItemLimits.ipv6MinPrefix} to /${ListItemLimits.ipv6MaxPrefix} (got /${prefix}); a single address is written without a prefix and stored as its /64`);
  }
  const mask = bits === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - bits)) - 1n);
  const network = v6 & mask;
  // A single address stands for its /64; a CIDR with host bits set is a mistake worth saying.
  if (prefix !== undefined && network !== v6) return bad(`host bits are set: the network of ${raw} is ${formatIpv6(network)}/${prefix}`);
  return { ok: true, value: `${formatIpv6(network)}/${bits}` };
}

function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(p)) return undefined;
    const v = Number(p);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const items = part.split(':');
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (i === items.length - 1 && item.includes('.')) {
        const v4 = parseIpv4(item);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(item)) {
        out.push(parseInt(item, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  let n = 0n;
  for (const g of [...head, ...new Array<number>(missing).fill(0), ...tail]) n = (n << 16n) | BigInt(g);
  return n;
}

/** RFC 5952: lower case, no leading zeros, the longest run (≥ 2) of zero groups as `::`. */
function formatIpv6(n: bigint): string {
  const g: number[] = [];
  for (let i = 7; i >= 0; i--) g.push(Number((n >> BigInt(i * 16)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}
