/**
 * List items by kind: reading one item of a write body, normalising its value as the service
 * stores it (security-phases.md §2), and the keys the store orders and deduplicates by.
 *
 * | kind     | accepted                                                   | stored as                          |
 * |----------|------------------------------------------------------------|------------------------------------|
 * | ip       | IPv4 address; IPv4 CIDR /8–/32; IPv6 address; IPv6 CIDR /4–/64 | IPv4 as written canonically (`/32` = the address); IPv6 lower-cased and compressed, a single address as its /64 |
 * | hostname | `{url_hostname, exclude_exact_hostname?}`: an FQDN, optional `*.` | lower-cased                     |
 * | asn      | an integer 0..4294967295                                   | the integer                        |
 *
 * A CIDR with host bits set is refused (the message names the network it should be), rather than
 * silently moved: `10.0.0.1/8` is most likely a typo.
 */
import { parseIp, type IpValue } from '../../expr/index.js';
import { ListRules, normalizeListItem, type HostnameValue, type ListItemBody, type ServedListKind } from '../../api/index.js';
import { BodyReader, quote, type Problems } from '../body-reader.js';

/** One item's value, normalised. */
export type ItemValue = { kind: 'ip'; ip: string } | { kind: 'hostname'; hostname: HostnameValue } | { kind: 'asn'; asn: number };

/** One item of a write body, read and normalised. */
export interface ItemInput {
  value: ItemValue;
  /** Unique per list and value; orders items ascending (`sortKey`). */
  key: string;
  comment: string | undefined;
}

/** The value key of each kind in a body. */
const ValueKey: Record<ServedListKind, string> = { ip: 'ip', hostname: 'hostname', asn: 'asn' };

/** Reads item `i` of a write body for a list of `kind`; problems are recorded with their pointers. */
export function readItem(raw: unknown, pointer: string, kind: ServedListKind, problems: Problems): ItemInput | undefined {
  const r = new BodyReader(raw, pointer, problems, `an item of an ${kind} list, {"${ValueKey[kind]}": …, "comment"?: …}`);
  if (!r.valid) return undefined;
  r.allowOnly([ValueKey[kind], 'comment']);
  const comment = r.string('comment', { maxLength: ListRules.commentMaxLength });
  if (!r.has(ValueKey[kind])) {
    problems.add(r.at(ValueKey[kind]), `${ValueKey[kind]} is required in an item of an ${kind} list`);
    return undefined;
  }
  const value = normaliseValue(kind, r.raw(ValueKey[kind]));
  if (typeof value === 'string') {
    problems.add(r.at(ValueKey[kind]), value);
    return undefined;
  }
  return { value, key: sortKey(value), comment };
}

/**
 * The normalised value of `raw` for a list of `kind`, or the reason it is refused. The value rules
 * are the client's too (`normalizeListItem`, src/api): one normaliser, so a list read back plans
 * nothing. The engine adds the body's shapes: an item's value is a string (ip), an integer (asn)
 * or `{url_hostname, exclude_exact_hostname?}` (hostname), as written, without spaces or `AS`.
 */
export function normaliseValue(kind: ServedListKind, raw: unknown): ItemValue | string {
  switch (kind) {
    case 'ip': {
      if (typeof raw !== 'string') return `ip must be a string, got ${typeof raw}`;
      const normal = raw === raw.trim() ? normalizeListItem('ip', raw) : undefined;
      if (normal === undefined || !normal.ok) return `${JSON.stringify(raw)}: ${normal?.ok === false ? normal.reason : 'must be an IP address or CIDR without spaces'}`;
      return { kind: 'ip', ip: String(normal.value) };
    }
    case 'asn': {
      const normal = typeof raw === 'number' ? normalizeListItem('asn', raw) : undefined;
      if (normal === undefined || !normal.ok) return `asn must be an integer from 0 to 4294967295, got ${quote(raw)}`;
      return { kind: 'asn', asn: Number(normal.value) };
    }
    case 'hostname': return normaliseHostname(raw);
  }
}

function normaliseHostname(raw: unknown): ItemValue | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'hostname must be an object {"url_hostname": …, "exclude_exact_hostname"?: …}';
  const h = raw as Record<string, unknown>;
  const extra = Object.keys(h).filter((k) => k !== 'url_hostname' && k !== 'exclude_exact_hostname');
  if (extra.length > 0) return `hostname has an unknown field ${JSON.stringify(extra[0])} (allowed: url_hostname, exclude_exact_hostname)`;
  if (typeof h.url_hostname !== 'string') return 'hostname.url_hostname must be a string';
  if (h.exclude_exact_hostname !== undefined && typeof h.exclude_exact_hostname !== 'boolean') return 'hostname.exclude_exact_hostname must be true or false';
  const normal = h.url_hostname === h.url_hostname.trim() ? normalizeListItem('hostname', h.url_hostname) : undefined;
  if (normal === undefined || !normal.ok) return `${JSON.stringify(h.url_hostname)} is not a fully qualified domain name (optionally prefixed by *.)`;
  const name = String(normal.value);
  const hostname: HostnameValue = { url_hostname: name };
  if (name.startsWith('*.') && h.exclude_exact_hostname !== undefined) hostname.exclude_exact_hostname = h.exclude_exact_hostname;
  return { kind: 'hostname', hostname };
}

/**
 * The key items sort ascending by (and are unique by): IPv4 before IPv6, each by address then
 * prefix; ASNs by number; hostnames by name.
 */
export function sortKey(value: ItemValue): string {
  switch (value.kind) {
    case 'asn': return value.asn.toString().padStart(10, '0');
    case 'hostname': return value.hostname.url_hostname;
    case 'ip': {
      const [address, prefix] = value.ip.split('/');
      const ip = parseIp(address!) as IpValue;
      return typeof ip === 'number'
        ? `4${ip.toString(16).padStart(8, '0')}/${(prefix ?? '32').padStart(3, '0')}`
        : `6${ip.toString(16).padStart(32, '0')}/${(prefix ?? '128').padStart(3, '0')}`;
    }
  }
}

/** The item's value as the API shows it (`{ip}`, `{hostname}` or `{asn}`). */
export function valueJson(value: ItemValue): ListItemBody {
  switch (value.kind) {
    case 'ip': return { ip: value.ip };
    case 'asn': return { asn: value.asn };
    case 'hostname': return { hostname: { ...value.hostname } };
  }
}

/** The item's value as text (search, messages, the trace's list values). */
export function valueText(value: ItemValue): string {
  switch (value.kind) {
    case 'ip': return value.ip;
    case 'asn': return String(value.asn);
    case 'hostname': return value.hostname.url_hostname;
  }
}
