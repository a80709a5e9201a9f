/**
 * What `$name` resolves to when `--against-zone` evaluates the zone as read here (`live-model.ts`):
 * a burst where the service has no burst route (the real service, `serve --strict`), the previous
 * WAF's verdict where the service's tracer does not tell it, every case where the service has no
 * tracer. The service resolves `$name` to the items of the zone's account's lists; so does this,
 * with the lists read through the provider (`listLists`, `listItems`), as `plan` reads them. Only
 * the lists the zone's expressions name are read, and nothing when none names one. Items become
 * the expression compiler's `Lists` as the engine's trace makes them (`catalogLists`): IPs and
 * CIDRs as text, AS numbers as integers, hostnames with `*.` matching subdomains.
 *
 * Not read: a zone whose service does not say its account (its lists are unknown: `$name` matches
 * nothing here), and the service's managed lists (`$cf.open_proxies`, …), whose members the service
 * does not list: they hold the engine's documented sample, as offline (`lists.ts`).
 */
import { catalogLists, type ListCatalogEntry } from '../engine/index.js';
import type { ListItemJson } from '../api/index.js';
import type { Lists } from '../expr/index.js';
import type { Provider } from '../providers/index.js';
import { managedListSamples, managedListsUsed } from './lists.js';

type LiveZone = Awaited<ReturnType<Provider['readZone']>>;

/** A `$name` as the Rules language writes it (custom lists; managed lists have a `cf.` prefix). */
const ListName = /\$([A-Za-z0-9_][A-Za-z0-9_.]*)/g;

/** Every expression of the zone as read: firewall filters, managed exceptions, custom, rate limiting rules and their counting expressions. */
export function liveExpressions(live: LiveZone): string[] {
  const out: string[] = [];
  for (const r of live.firewallRules) if ('expression' in r.filter) out.push(r.filter.expression);
  for (const r of live.entrypoint?.rules ?? []) if (typeof r.expression === 'string') out.push(r.expression);
  for (const r of live.customEntrypoint?.rules ?? []) out.push(r.expression);
  for (const r of live.rateLimitEntrypoint?.rules ?? []) {
    out.push(r.expression);
    if (typeof r.ratelimit?.counting_expression === 'string') out.push(r.ratelimit.counting_expression);
  }
  return out;
}

/** The list names the expressions may use (a `$` inside a string literal may add one that is not: it is only read, never wrong). */
export function namedLists(expressions: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const e of expressions) {
    if (!e.includes('$')) continue;
    for (const m of e.matchAll(ListName)) out.add(m[1]!);
  }
  return out;
}

/**
 * The lists of `account` that the live zone's expressions name, read through the provider, and the
 * managed ones they name with their samples; undefined when none is named (an account's list is
 * unknown, and matches nothing, when the account is).
 * @example const lists = await readLiveLists(provider, live, zone.account);
 */
export async function readLiveLists(provider: Provider, live: LiveZone, account: { id: string } | undefined): Promise<Lists | undefined> {
  const names = namedLists(liveExpressions(live));
  if (names.size === 0) return undefined;
  const samples = managedListSamples();
  const managedNames = managedListsUsed(names);
  const managed: Lists = Object.fromEntries(managedNames.map((n) => [n, samples[n]!]));
  // Managed lists are not read (the service does not list them): only the account's own are.
  if (account === undefined || managedNames.length === names.size) return managedNames.length === 0 ? undefined : managed;
  const catalog: ListCatalogEntry[] = [];
  for (const list of await provider.listLists(account.id)) {
    if (!names.has(list.name) || list.kind === 'redirect') continue;
    const items = await provider.listItems(account.id, list.id);
    catalog.push({ name: list.name, kind: list.kind, items: items.map(catalogItem) });
  }
  return { ...managed, ...catalogLists(catalog) };
}

function catalogItem(item: ListItemJson): NonNullable<ListCatalogEntry['items']>[number] {
  if ('hostname' in item) return { host: item.hostname.url_hostname, excludeExact: item.hostname.exclude_exact_hostname !== false };
  return 'asn' in item ? String(item.asn) : item.ip;
}
