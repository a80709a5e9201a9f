/**
 * The body of `POST /zones/{zone_id}/trace/burst`: `{ request, burst }`, the request read as the
 * trace's (`request.ts`), the burst checked here: `count` (1..10,000,000) with `over` (seconds,
 * 0 or more) or `at` (non-decreasing seconds), `vary` lists of one length, `cached` a boolean.
 * Every problem is listed with its JSON pointer (400).
 */
import type { BurstSpec, BurstVary } from '../../api/index.js';
import type { RequestDescription } from '../../expr/index.js';
import { ApiError } from '../api-errors.js';
import { BodyReader, Problems, jsonType, requireObject } from '../body-reader.js';
import { BurstLimits } from './burst.js';
import { readTraceRequest } from './request.js';

/** Reads the body; throws a 400 listing every problem. */
export function readBurstBody(body: unknown): { request: RequestDescription; burst: BurstSpec } {
  const problems = new Problems();
  const r = new BodyReader(requireObject(body, 'a burst trace body: {request, burst}'), '', problems);
  r.allowOnly(['request', 'burst']);
  let request: RequestDescription | undefined;
  try {
    request = readTraceRequest(r.raw('request') ?? {}).description;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    for (const m of err.errors) problems.add(`/request${m.source?.pointer ?? ''}`, m.message);
  }
  const burst = readBurstSpec(r.raw('burst'), '/burst', problems);
  problems.throwIfAny();
  return { request: request!, burst: burst! };
}

/** Checks a burst description at `pointer`. */
export function readBurstSpec(value: unknown, pointer: string, problems: Problems): BurstSpec | undefined {
  const r = new BodyReader(value, pointer, problems, 'a burst object');
  if (!r.valid) return undefined;
  r.allowOnly(['count', 'over', 'at', 'vary', 'cached']);
  const out: BurstSpec = {};
  const count = r.number('count', { min: 1, max: BurstLimits.requests });
  if (typeof count === 'number') {
    if (!Number.isInteger(count)) problems.add(r.at('count'), `count must be an integer; got ${count}`);
    out.count = count;
  }
  const over = r.number('over', { min: 0, max: 1e9 });
  if (typeof over === 'number') out.over = over;
  if (r.has('at')) {
    const at = r.raw('at');
    if (!Array.isArray(at) || at.length === 0 || at.length > BurstLimits.requests || at.some((t, i) => typeof t !== 'number' || t < 0 || (i > 0 && t < (at[i - 1] as number)))) {
      problems.add(r.at('at'), 'at must be a non-empty list of times in seconds from the burst\'s start, each 0 or more and none before the one before it');
    } else out.at = at as number[];
    if (r.has('count') || r.has('over')) problems.add(r.at('at'), 'give either at (the times) or count and over, not both');
  } else if (!r.has('count')) problems.add(r.at('count'), 'count is required (or at: the times of the requests)');
  const cached = r.boolean('cached');
  if (cached !== undefined) out.cached = cached;
  if (r.has('vary')) {
    const vary = readVary(r.raw('vary'), r.at('vary'), problems);
    if (vary !== undefined) out.vary = vary;
  }
  return out;
}

function readVary(value: unknown, pointer: string, problems: Problems): BurstVary | undefined {
  const r = new BodyReader(value, pointer, problems);
  if (!r.valid) return undefined;
  r.allowOnly(['ip', 'path', 'host', 'headers']);
  const out: BurstVary = {};
  const lengths: number[] = [];
  const list = (v: unknown, at: string): string[] | undefined => {
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'string')) {
      problems.add(at, `must be a non-empty list of strings, got ${jsonType(v)}`);
      return undefined;
    }
    lengths.push(v.length);
    return v as string[];
  };
  for (const key of ['ip', 'path', 'host'] as const) {
    if (r.has(key)) {
      const l = list(r.raw(key), r.at(key));
      if (l !== undefined) out[key] = l;
    }
  }
  if (r.has('headers')) {
    const h = new BodyReader(r.raw('headers'), r.at('headers'), problems);
    if (h.valid) {
      out.headers = {};
      for (const name of Object.keys(r.raw('headers') as object)) {
        const l = list(h.raw(name), h.at(name));
        if (l !== undefined) out.headers[name] = l;
      }
    }
  }
  if (new Set(lengths).size > 1) problems.add(pointer, `every vary list must have the same length (one value per distinct request); got lengths ${lengths.join(', ')}`);
  return out;
}
