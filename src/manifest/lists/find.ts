/**
 * Finding the account manifest of a run: among the files a run reads, or, for a zone manifest named
 * on its own, beside it (the same directory), so `zonewall test zones/shop.yaml` sees the lists of
 * `zones/account.yaml` as `zonewall test zones` does.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { expandPaths } from '../load.js';
import { isAccountManifestText, validateAccountManifestText, type AccountResult } from './account.js';

/** The account manifest among `files`, or beside the first of them; undefined when there is none. */
export async function findAccountManifest(files: readonly string[]): Promise<AccountResult | undefined> {
  const own = accountAmong(files);
  if (own !== undefined || files.length === 0) return own;
  const { files: beside } = await expandPaths([dirname(files[0]!)]);
  return accountAmong(beside);
}

function accountAmong(files: readonly string[]): AccountResult | undefined {
  for (const file of files) {
    try {
      if (saysZone(file)) continue;
      const text = readFileSync(file, 'utf8');
      if (isAccountManifestText(text)) return validateAccountManifestText(text, file);
    } catch {
      continue;
    }
  }
  return undefined;
}

/** True for an account manifest's file (a look at its text, not a validation); false when unreadable. */
export function isAccountManifestFile(file: string): boolean {
  try {
    return !saysZone(file) && isAccountManifestText(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

const Head = 16 * 1024;
const head = Buffer.alloc(Head);

/**
 * True when the file's first bytes already have a top-level `zone:`: a zone manifest, never the
 * account's. A run over many large zone manifests then reads a few kilobytes of each here, not all of
 * them twice (the loader reads them whole afterwards).
 */
function saysZone(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const n = readSync(fd, head, 0, Head, 0);
    return /^zone[ \t]*:/m.test(head.toString('latin1', 0, n));
  } finally {
    closeSync(fd);
  }
}
