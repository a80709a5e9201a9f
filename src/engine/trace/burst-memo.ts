/**
 * What a burst's distinct requests (variants) have in common, so the burst trace evaluates each
 * expression once per distinct value of what it reads rather than once per variant. A burst varies
 * its template along at most four dimensions (`vary`: the client IP, the path, the host, headers);
 * `fieldDims` says which of them can change a catalog field as `requestFields` builds it, and an
 * expression's dimensions are those of the fields it reads (`inspect`). Two variants with the same
 * values in an expression's dimensions get the same answer from it, so the answer is memoised by
 * those values (`dimKey`). The table errs only on the side of more dimensions (a template `url` or
 * `fields` override makes a dimension change nothing; more evaluations, the same answers);
 * test/engine/trace/burst-memo.test.ts checks it against `requestFields` for every catalog field.
 */
import type { BurstSpec } from '../../api/index.js';
import { ColoCharacteristic } from '../../api/index.js';
import { inspect, parse, type Phase } from '../../expr/index.js';

/**
 * The dimensions a burst varies, as bits: the client IP, the path, the host, any header, and the
 * headers some fields are made of alone (a varied header of that name has both its bit and `headers`).
 */
export const Dim = {
  ip: 1, path: 2, host: 4, headers: 8,
  hostHeader: 16, userAgent: 32, referer: 64, cookie: 128, forwardedFor: 256, acceptLanguage: 512,
} as const;
/** Every dimension: what an expression that cannot be read depends on. */
export const AllDims = 1023;

/** Fields `requestFields` makes of one header alone: the header's dimension. */
const OneHeader: Readonly<Record<string, number>> = {
  'http.user_agent': Dim.userAgent, 'http.referer': Dim.referer, 'http.cookie': Dim.cookie, 'http.request.cookies': Dim.cookie,
  'http.x_forwarded_for': Dim.forwardedFor, 'http.request.accepted_languages': Dim.acceptLanguage,
};

/** The header dimension of a header name (any case): its own bit if fields are made of it alone, and `headers`. */
export function headerDims(name: string): number {
  switch (name.toLowerCase()) {
    case 'host': return Dim.headers | Dim.hostHeader;
    case 'user-agent': return Dim.headers | Dim.userAgent;
    case 'referer': return Dim.headers | Dim.referer;
    case 'cookie': return Dim.headers | Dim.cookie;
    case 'x-forwarded-for': return Dim.headers | Dim.forwardedFor;
    case 'accept-language': return Dim.headers | Dim.acceptLanguage;
    default: return Dim.headers;
  }
}

/** The dimensions whose values can change `field` (a catalog name) in a request's fields. */
export function fieldDims(field: string): number {
  if (field === 'ip.src') return Dim.ip;
  const bare = field.startsWith('raw.') ? field.slice(4) : field;
  // The full URI holds the host (from the host, else the Host header) and the path.
  if (bare === 'http.request.full_uri') return Dim.path | Dim.host | Dim.hostHeader;
  if (bare.startsWith('http.request.uri')) return Dim.path;
  if (bare === 'http.host') return Dim.host | Dim.hostHeader;
  // The header map and the lists of names and values hold every header.
  if (bare.startsWith('http.request.headers')) return Dim.headers;
  return OneHeader[bare] ?? 0;
}

const cache = new Map<string, number>();
const MaxEntries = 5000;

/** The dimensions of the fields `source` reads (in `phase`); every dimension if it does not parse. */
export function expressionDims(source: string, phase: Phase): number {
  const key = `${phase}\u0000${source}`;
  let dims = cache.get(key);
  if (dims === undefined) {
    try {
      dims = 0;
      for (const f of inspect(parse(source, { phase })).fields) dims |= fieldDims(f);
    } catch {
      dims = AllDims;
    }
    if (cache.size >= MaxEntries) cache.clear();
    cache.set(key, dims);
  }
  return dims;
}

/** The dimensions of a rate limiting characteristic (`ratelimit.ts` reads its value). */
export function characteristicDims(c: string): number {
  if (c === ColoCharacteristic) return 0;
  if (c === 'cf.unique_visitor_id') return Dim.ip;
  if (c.startsWith('lookup_json_')) return fieldDims('http.request.body.raw');
  const bracket = c.indexOf('[');
  return fieldDims(bracket < 0 ? c : c.slice(0, bracket));
}

/**
 * Variants numbered by their values in some dimensions: `ids[j]` is variant `j`'s number, and two
 * variants get the same number exactly when they have the same values in those dimensions (the ones
 * the burst does not vary are the template's, the same for every variant); numbers run from 0 to
 * `size - 1`, so answers memoised by them live in an array.
 */
export interface VariantIds {
  ids: Int32Array;
  size: number;
}

/** `VariantIds` of a burst's variants by dimensions (made once per set of dimensions), and the dimensions it varies. */
export function variantIds(spec: BurstSpec, variants: number): { varied: number; idsOf: (dims: number) => VariantIds } {
  const v = spec.vary ?? {};
  // Each varied list with its dimensions.
  const lists: { dims: number; values: readonly string[]; ids?: VariantIds }[] = [];
  if (v.ip !== undefined) lists.push({ dims: Dim.ip, values: v.ip });
  if (v.path !== undefined) lists.push({ dims: Dim.path, values: v.path });
  if (v.host !== undefined) lists.push({ dims: Dim.host, values: v.host });
  for (const [name, values] of Object.entries(v.headers ?? {})) lists.push({ dims: headerDims(name), values });
  const varied = lists.reduce((d, l) => d | l.dims, 0);
  const byDims = new Map<number, VariantIds>();
  const idsOf = (dims: number): VariantIds => {
    const key = dims & varied;
    let out = byDims.get(key);
    if (out === undefined) {
      const ls = lists.filter((l) => (l.dims & key) !== 0).map((l) => (l.ids ??= listIds(l.values, variants)));
      out = ls.length === 0 ? { ids: new Int32Array(variants), size: 1 } : ls.reduce(pairIds);
      byDims.set(key, out);
    }
    return out;
  };
  return { varied, idsOf };
}

/** The numbers of one list's values. */
function listIds(values: readonly string[], variants: number): VariantIds {
  const seen = new Map<string, number>();
  const ids = new Int32Array(variants);
  for (let j = 0; j < variants; j++) {
    const value = values[j]!;
    let id = seen.get(value);
    if (id === undefined) seen.set(value, (id = seen.size));
    ids[j] = id;
  }
  return { ids, size: seen.size };
}

/** The numbers of pairs of numbers (each below the variant count, so the pair's code is exact). */
function pairIds(a: VariantIds, b: VariantIds): VariantIds {
  // One side says nothing (one value), or tells every variant apart: its numbers are the pair's.
  if (b.size === 1 || a.size === a.ids.length) return a;
  if (a.size === 1 || b.size === b.ids.length) return b;
  const seen = new Map<number, number>();
  const ids = new Int32Array(a.ids.length);
  for (let j = 0; j < ids.length; j++) {
    const code = a.ids[j]! * b.size + b.ids[j]!;
    let id = seen.get(code);
    if (id === undefined) seen.set(code, (id = seen.size));
    ids[j] = id;
  }
  return { ids, size: seen.size };
}
