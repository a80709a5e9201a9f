/**
 * Bookmarks: the production format of four hyphen-separated lowercase hex groups (8-8-8-32). The
 * first two groups are the 64-bit sequence number of a log record (the state after that commit),
 * the third counts `getCurrentBookmark()` calls, the fourth is the object's log lineage. Fixed
 * width makes plain string comparison follow time order; the lineage lets a bookmark of another
 * object be refused. A restore reads only the sequence number, so two bookmarks with no write
 * between them restore the same state.
 *
 * The call count makes every `getCurrentBookmark()` strictly greater than the one before, even
 * with no write between them and across restarts, as the reference's local bookmarks are (it
 * counts calls and persists the counter). Ours lives in `<object>.pitr/bookmark-calls`, written on
 * each call without fsync: a process crash keeps it (the page cache survives), only an OS crash
 * could lose the last few counts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageTypeError } from '../errors.js';

const PATTERN = /^([0-9a-f]{8})-([0-9a-f]{8})-([0-9a-f]{8})-([0-9a-f]{32})$/;
const TWO_32 = 2 ** 32;

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** The bookmark of the state after record `seq`; `call` is the call count of `getCurrentBookmark()`. */
export function formatBookmark(seq: number, lineage: string, call = 0): string {
  return `${hex8(Math.floor(seq / TWO_32))}-${hex8(seq % TWO_32)}-${hex8(call % TWO_32)}-${lineage}`;
}

/** The persisted count of `getCurrentBookmark()` calls of one object. */
export class BookmarkCounter {
  readonly #file: string;
  #count: number | null = null;

  constructor(dir: string) {
    this.#file = join(dir, 'bookmark-calls');
  }

  /** The next count, recorded before it is handed out. */
  next(): number {
    if (this.#count === null) {
      let stored = 0;
      try {
        stored = Number.parseInt(readFileSync(this.#file, 'utf8'), 10);
      } catch {
        // No call yet.
      }
      this.#count = Number.isSafeInteger(stored) && stored > 0 ? stored : 0;
    }
    this.#count++;
    writeFileSync(this.#file, String(this.#count));
    return this.#count;
  }
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
