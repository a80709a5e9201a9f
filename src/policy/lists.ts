/**
 * The lists `$name` resolves to offline: the account manifest's items, as the expression compiler
 * takes them (IP items as text, CIDRs included; AS numbers as integers; hostnames as text). A case
 * never meets an unknown list: a zone manifest that uses one does not load (`unknown list`).
 */
import type { Lists } from '../expr/index.js';
import type { DesiredAccount } from '../manifest/index.js';

/** The lists of an account manifest for the offline evaluator. */
export function listsOf(account: DesiredAccount | undefined): Lists {
  const out: Record<string, (string | number)[]> = {};
  for (const list of account?.lists ?? []) out[list.name] = list.items.map((i) => i.value);
  return out;
}
