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
 * A zone whose service does not say its account: the run's account manifest's account stands for it
 * (resolved through the provider), as `plan`'s list check takes it; without one its lists are not
 * read (`$name` matches nothing here) and the report's note says so (`readZoneLists`). Never read:
 * the service's managed lists (`$cf.open_proxies`, …), whose members the service does not list:
 * they hold the engine's documented sample, as offline (`lists.ts`).
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

/**
 * `readLiveLists` for the zone of `account` (undefined: the service does not say it). Then the run's
 * account manifest's account (`fallback`, a name or id) stands for it; without one the zone's own
 * lists are not read, and `notes` gets what that means for the verdicts of what is evaluated here.
 * @example const lists = await readZoneLists(provider, live, zone.account, accountManifest?.account, notes);
 */
export async function readZoneLists(
  provider: Provider, live: LiveZone, account: { id: string } | undefined, fallback: string | undefined, notes: string[],
): Promise<Lists | undefined> {
  if (account !== undefined) return readLiveLists(provider, live, account);
  const names = [...namedLists(liveExpressions(live))];
  const managed = new Set(managedListsUsed(names));
  const custom = names.filter((n) => !managed.has(n));
  if (custom.length === 0) return readLiveLists(provider, live, undefined);
  const named = custom.map((n) => `$${n}`).join(', ');
  if (fallback !== undefined) {
    const found = await provider.resolveAccount(fallback);
    notes.push(`${named}: the service does not say the zone's account, so where zonewall evaluates the rules itself these are the lists of the account manifest's account ${JSON.stringify(found.name)}, read through the provider`);
    return readLiveLists(provider, live, found);
  }
  notes.push(`${named}: the service does not say the zone's account, so its lists were not read: where zonewall evaluates the rules itself (the service has no tracer, or a burst has no route) these match nothing, `
    + 'so a rule that uses one never matches there and a verdict that depends on it may differ from the service\'s; an account manifest (`account:`) in the run names the account to read them from');
  return readLiveLists(provider, live, undefined);
}

function catalogItem(item: ListItemJson): NonNullable<ListCatalogEntry['items']>[number] {
  if ('hostname' in item) return { host: item.hostname.url_hostname, excludeExact: item.hostname.exclude_exact_hostname !== false };
  return 'asn' in item ? String(item.asn) : item.ip;
}
