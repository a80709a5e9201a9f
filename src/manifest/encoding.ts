/**
 * Manifests and cases files are UTF-8. Read as UTF-8, a Latin-1 `é` became `�` and passed
 * validation inside a zone name or a description, and a UTF-16 file (as some Windows editors save)
 * read as "must be a map (got "��z\u0000o\u0000...")". Both are a located error saying what to do.
 * The check costs one search of the text: the bytes are looked at only when it holds a `�`.
 */
import { readFileSync } from 'node:fs';
import type { ManifestIssue } from './errors.js';

const Replacement = '\ufffd';

/** The encoding problem of `file`, whose UTF-8 reading is `text`; undefined when it is UTF-8. */
export function encodingIssue(file: string, text: string): ManifestIssue | undefined {
  const at = text.indexOf(Replacement);
  if (at === -1) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { file, line: 1, column: 1, path: '', message: 'the file is UTF-16 (it starts with a UTF-16 byte order mark): save it as UTF-8' };
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return undefined; // a `�` written as such
  } catch {
    // The first `�` is the first byte that is not UTF-8 (unless a real one comes before it: rare).
    const before = text.slice(0, at).split(/\r?\n/);
    return {
      file, line: before.length, column: before[before.length - 1]!.length + 1, path: '',
      message: 'the file is not valid UTF-8 here (saved as Latin-1 or Windows-1252?): save it as UTF-8',
    };
  }
}
