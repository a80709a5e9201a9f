/**
 * The fingerprint of an account's lists: a SHA-256 over every list (id, name, kind, description)
 * and every item (id, value, comment), sorted by id so the order a service lists them in does not
 * matter. A saved plan with a lists plan records it (`plan --out`); `apply FILE` reads the account
 * again and refuses when it differs (ERR_STALE_PLAN), as it does for zones: its item writes name
 * item ids and were computed against those items. Counts of referencing rules are left out (the
 * zones' own fingerprints cover their rules).
 */
import { createHash } from 'node:crypto';
import type { LiveAccount } from './live.js';

/**
 * `sha256:` and 64 hex digits.
 * @example accountFingerprint({ id, name, lists: [] })
 */
export function accountFingerprint(live: LiveAccount): string {
  const hash = createHash('sha256');
  let chunk = '';
  const put = (line: string) => {
    chunk += `${line}\n`;
    if (chunk.length >= 65536) {
      hash.update(chunk);
      chunk = '';
    }
  };
  put(JSON.stringify(['account', live.id]));
  const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  for (const list of [...live.lists].sort(byId)) {
    put(JSON.stringify(['list', list.id, list.name, list.kind, list.description]));
    for (const item of [...list.items].sort(byId)) put(JSON.stringify(item.excludeExact === false ? [item.id, item.value, item.comment ?? '', false] : [item.id, item.value, item.comment ?? '']));
  }
  hash.update(chunk);
  return `sha256:${hash.digest('hex')}`;
}
