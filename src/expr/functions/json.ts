/**
 * `lookup_json_string(src, key...)` and `lookup_json_integer(src, key...)`: walk a JSON document by
 * object keys (strings) and array indexes (integers); the result must be a string / an integer.
 * Anything else (invalid JSON, a missing key, another type) is a missing value. JSON numbers are
 * read by `JSON.parse`, so `42.0` counts as an integer here (the real engine refuses it).
 */
import type { Value } from '../context.js';
import { bytesToText, textToBytes } from '../ast.js';

type Args = readonly (Value | undefined)[];

function walk(args: Args): unknown {
  const src = args[0] as string | undefined;
  if (src === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(bytesToText(src));
  } catch {
    return undefined;
  }
  for (const key of args.slice(1)) {
    if (typeof key === 'number') {
      if (!Array.isArray(doc) || key < 0 || key >= doc.length) return undefined;
      doc = doc[key];
    } else if (typeof key === 'string') {
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
      const text = bytesToText(key);
      if (!Object.prototype.hasOwnProperty.call(doc, text)) return undefined;
      doc = (doc as Record<string, unknown>)[text];
    } else {
      return undefined;
    }
  }
  return doc;
}

/** `lookup_json_string`. */
export function lookupJsonString(args: Args): Value | undefined {
  const v = walk(args);
  return typeof v === 'string' ? textToBytes(v) : undefined;
}

/** `lookup_json_integer`. */
export function lookupJsonInteger(args: Args): Value | undefined {
  const v = walk(args);
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}
