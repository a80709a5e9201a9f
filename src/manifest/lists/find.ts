/**
 * Finding the account manifest of a run: among the files a run reads, or, for a zone manifest named
 * on its own, beside it (the same directory), so `zonewall test zones/shop.yaml` sees the lists of
 * `zones/account.yaml` as `zonewall test zones` does.
 */
import { readFileSync } from 'node:fs';
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
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (isAccountManifestText(text)) return validateAccountManifestText(text, file);
  }
  return undefined;
}
