/**
 * Zone names: DNS-style names (`example.com`, `staging-zone`), compared case-insensitively and
 * stored lowercase. A name may not look like a zone id (32 hex characters), because commands take
 * "a zone name or id" and must never be ambiguous.
 */
import { ApiError } from '../api-errors.js';
import { isId } from '../ids.js';

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

/** The stored form of a zone name, or throws a 400 naming the rule broken. */
export function normalizeZoneName(name: string): string {
  const lower = name.trim().toLowerCase();
  if (lower.length === 0 || lower.length > 253 || !NAME.test(lower)) {
    throw ApiError.of('invalidField', `zone name ${JSON.stringify(name)} is not a valid name: use DNS labels (letters, digits, '-', '_') joined by dots, at most 253 characters`, { pointer: '/name' });
  }
  if (isId(lower)) {
    throw ApiError.of('invalidField', `zone name ${JSON.stringify(name)} looks like a zone id (32 hex characters); choose another name`, { pointer: '/name' });
  }
  return lower;
}
