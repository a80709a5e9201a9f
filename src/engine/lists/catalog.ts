/**
 * An account's list catalog as the zone objects see it: each list's name and kind (to check the
 * `$name` of rules on write), and for the trace its items. Managed lists (`$cf.open_proxies`, …)
 * are in the catalog of Enterprise accounts only: read-only IP lists whose members the engine
 * cannot know, so it carries a small documented sample (documentation addresses, RFC 5737 and
 * RFC 3849) that tests can rely on:
 *
 * | list               | sample members                          |
 * |--------------------|-----------------------------------------|
 * | `cf.open_proxies`  | 192.0.2.66, 198.51.100.0/29             |
 * | `cf.anonymizer`    | 198.51.100.64/28                        |
 * | `cf.vpn`           | 203.0.113.128/27                        |
 * | `cf.malware`       | 192.0.2.200                             |
 * | `cf.botnetcc`      | 203.0.113.250, 2001:db8:bad::/48        |
 */
import { ListQuotas, ManagedListNames, type PlanTier, type ServedListKind } from '../../api/index.js';
import type { FieldValue, Lists } from '../../expr/index.js';

/** A hostname item as the trace needs it. */
export interface CatalogHost {
  host: string;
  /** For `*.` items: whether the bare domain is left out (the API's `exclude_exact_hostname`, default true). */
  excludeExact: boolean;
}

/** One list of an account's catalog. */
export interface ListCatalogEntry {
  /** As used after `$` (managed lists: `cf.open_proxies`, …). */
  name: string;
  kind: ServedListKind;
  /** Only when asked for (a trace): IP and ASN items as text, hostname items as `CatalogHost`. */
  items?: (string | CatalogHost)[];
  /** A managed list (read-only, provided by the service). */
  managed?: boolean;
}

/** The documented sample members of the managed lists. */
export const ManagedListSamples: Readonly<Record<(typeof ManagedListNames)[number], readonly string[]>> = {
  'cf.open_proxies': ['192.0.2.66', '198.51.100.0/29'],
  'cf.anonymizer': ['198.51.100.64/28'],
  'cf.vpn': ['203.0.113.128/27'],
  'cf.malware': ['192.0.2.200'],
  'cf.botnetcc': ['203.0.113.250', '2001:db8:bad::/48'],
};

/** The account's catalog with the managed lists its plan has. */
export function withManagedLists(catalog: ListCatalogEntry[], plan: PlanTier, withItems: boolean): ListCatalogEntry[] {
  if (!ListQuotas[plan].managed) return catalog;
  const managed = ManagedListNames.map((name): ListCatalogEntry => ({ name, kind: 'ip', managed: true, ...(withItems ? { items: [...ManagedListSamples[name]] } : {}) }));
  return [...catalog, ...managed];
}

/**
 * The catalog's items as the expression compiler's `Lists`: IP items as text (CIDRs included),
 * ASNs as numbers, hostnames as text where `*.example.com` matches subdomains (and, with
 * `exclude_exact_hostname: false`, `example.com` too).
 */
export function catalogLists(catalog: readonly ListCatalogEntry[]): Lists {
  const out: Record<string, FieldValue[]> = {};
  for (const entry of catalog) {
    const values: FieldValue[] = [];
    for (const item of entry.items ?? []) {
      if (typeof item !== 'string') {
        values.push(item.host);
        if (item.host.startsWith('*.') && !item.excludeExact) values.push(item.host.slice(2));
      } else values.push(entry.kind === 'asn' ? Number(item) : item);
    }
    out[entry.name] = values;
  }
  return out;
}
