/**
 * `zonewall export` of an account: the account manifest written from the live lists (items in the
 * service's order, comments kept), which `validate` accepts and which plans nothing against the
 * account it was read from.
 */
import { stringify } from 'yaml';
import type { LiveAccount } from './live.js';

/** The account manifest text of `live`; `schemaPath`: the `$schema` comment's path, when wanted. */
export function exportAccountManifest(live: LiveAccount, schemaPath?: string): string {
  const lists: Record<string, unknown> = {};
  for (const list of [...live.lists].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (list.kind === 'redirect') continue;
    const entry: Record<string, unknown> = { kind: list.kind };
    if (list.description !== '') entry.description = list.description;
    entry.items = list.items.map((i) => {
      if (i.comment === undefined && i.excludeExact === undefined) return i.value;
      const item: Record<string, unknown> = { value: i.value };
      if (i.comment !== undefined) item.comment = i.comment;
      if (i.excludeExact === false) item.exclude_exact_hostname = false;
      return item;
    });
    lists[list.name] = entry;
  }
  const head = schemaPath === undefined ? '' : `# yaml-language-server: $schema=${schemaPath}\n`;
  return `${head}${stringify({ account: live.name, lists }, { lineWidth: 0 })}`;
}
