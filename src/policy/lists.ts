/**
 * The lists `$name` resolves to where zonewall evaluates rules itself: offline, the account
 * manifest's items, as the expression compiler takes them (IP items as text, CIDRs included; AS
 * numbers as integers; hostnames as text). A case never meets an unknown list: a zone manifest that
 * uses one does not load (`unknown list`). Managed lists (`$cf.open_proxies`, …), whose members only
 * the service knows, hold the engine's documented sample (`ManagedListSamples`) wherever zonewall
 * evaluates, offline as in the engine's trace, so the two agree; each report that uses one says so.
 */
import { ManagedListSamples } from '../engine/index.js';
import type { Lists } from '../expr/index.js';
import type { DesiredAccount, DesiredZone } from '../manifest/index.js';

/** The managed lists with their sample members, by `$` name (`cf.open_proxies`). */
export function managedListSamples(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, members] of Object.entries(ManagedListSamples)) out[name] = [...members];
  return out;
}

/** The lists of an account manifest for the offline evaluator, and the managed lists' samples. */
export function listsOf(account: DesiredAccount | undefined): Lists {
  const out: Record<string, (string | number)[]> = managedListSamples();
  for (const list of account?.lists ?? []) {
    // `*.example.com` with `exclude_exact_hostname: false` matches example.com too, as in the engine's trace.
    out[list.name] = list.items.flatMap((i) => (i.excludeExact === false ? [i.value, String(i.value).slice(2)] : [i.value]));
  }
  return out;
}

/** The managed lists `names` holds (`cf.…`), in order met, once each. */
export function managedListsUsed(names: Iterable<string>): string[] {
  return [...new Set([...names].filter((n) => Object.hasOwn(ManagedListSamples, n)))];
}

/** The note of a report whose zone uses the managed lists `used` (none: undefined). */
export function managedListsNote(used: readonly string[]): string | undefined {
  if (used.length === 0) return undefined;
  const samples = used.map((n) => `${n} ${ManagedListSamples[n as keyof typeof ManagedListSamples].join(', ')}`).join('; ');
  const what = used.length === 1 ? 'a managed list, whose members only the service knows, holds' : 'managed lists, whose members only the service knows, hold';
  return `${used.map((n) => `$${n}`).join(', ')}: ${what} the engine's documented sample here (${samples}); the service's own tracer uses the real members`;
}

/** The managed lists the zone's expressions use. */
export function managedListsOfZone(zone: DesiredZone): string[] {
  return managedListsUsed((zone.listReferences ?? []).map((r) => r.use.name));
}
