/**
 * Bookmarks: the production format of four hyphen-separated lowercase hex groups (8-8-8-32). The
 * first two groups are the 64-bit sequence number of a log record (the state after that commit),
 * the third is zero, the fourth is the object's log lineage. Fixed width makes plain string
 * comparison follow time order; the lineage lets a bookmark of another object be refused.
 */
import { StorageTypeError } from '../errors.js';

const PATTERN = /^([0-9a-f]{8})-([0-9a-f]{8})-([0-9a-f]{8})-([0-9a-f]{32})$/;
const TWO_32 = 2 ** 32;

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** The bookmark of the state after record `seq`. */
export function formatBookmark(seq: number, lineage: string): string {
  return `${hex8(Math.floor(seq / TWO_32))}-${hex8(seq % TWO_32)}-00000000-${lineage}`;
}

/** The sequence number in `bookmark`; throws `TypeError` for a malformed or foreign bookmark. */
export function parseBookmark(bookmark: unknown, lineage: string): number {
  if (typeof bookmark !== 'string') throw new StorageTypeError('A bookmark must be a string.');
  const match = PATTERN.exec(bookmark);
  if (!match) {
    throw new StorageTypeError(
      `Invalid bookmark "${bookmark.slice(0, 80)}": expected four hex groups (8-8-8-32 digits) as returned by getCurrentBookmark().`,
    );
  }
  if (match[4] !== lineage) {
    throw new StorageTypeError(`The bookmark "${bookmark}" belongs to another object's storage and cannot be restored here.`);
  }
  return parseInt(match[1] as string, 16) * TWO_32 + parseInt(match[2] as string, 16);
}
