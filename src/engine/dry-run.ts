/**
 * Dry runs of zone writes (`?dry_run=true`, `api/dry-run.ts`), for every write route at once: the
 * dispatcher takes the parameter off the query (`dryRunOf`), and the zone object runs the route's
 * own handler inside the request's storage transaction and rolls it back (`zone-object.ts`), so a
 * dry run is validated by the same code path and refused with the same errors as the write, and
 * leaves nothing behind. A route added later (a new phase, lists) gets dry runs with no change.
 */
import { DryRunApiPrefix, DryRunParameter } from '../api/index.js';
import { ApiError } from './api-errors.js';
import type { ApiResponse } from './types.js';

/** Whether the real API takes `dry_run` on a write of route `pattern` (the Rulesets API); else it is zonewall's extension. */
export function realApiDryRun(pattern: string): boolean {
  return pattern === DryRunApiPrefix || pattern.startsWith(`${DryRunApiPrefix}/`);
}

/** A write's query without `dry_run`, and whether it asked for a dry run. */
export interface DryRunQuery {
  dryRun: boolean;
  query: readonly [string, string][];
}

/**
 * Reads `dry_run` off a write's query: `true` / `false` (as the official client sends them), any
 * other value refused (10017). Under `strict`, routes whose real API has no dry run refuse the
 * parameter (10017) instead of ignoring it: a request asking for a dry run never writes.
 */
export function dryRunOf(method: string, pattern: string, query: readonly [string, string][], strict: boolean): DryRunQuery {
  if (method === 'GET' || !query.some(([name]) => name === DryRunParameter)) return { dryRun: false, query };
  if (strict && !realApiDryRun(pattern)) {
    throw ApiError.of('invalidQuery', `unknown query parameter "${DryRunParameter}" (dry runs of this route are a zonewall extension, not served under --strict); nothing was changed`, { pointer: `?${DryRunParameter}` });
  }
  const values = query.filter(([name]) => name === DryRunParameter).map(([, value]) => value);
  if (values.some((v) => v !== 'true' && v !== 'false') || new Set(values).size > 1) {
    throw ApiError.of('invalidQuery', `query parameter ${DryRunParameter} must be true or false, got ${JSON.stringify(values.join(','))}; nothing was changed`, { pointer: `?${DryRunParameter}` });
  }
  return { dryRun: values[0] === 'true', query: query.filter(([name]) => name !== DryRunParameter) };
}

/** The answer of a dry run: the write's answer with `result: null` (a 204 stays 204; a refusal is unchanged). */
export function dryRunAnswer(response: ApiResponse): ApiResponse {
  if (response.body.result === null || response.body.result === undefined) return response;
  const { result_info: _info, ...body } = response.body;
  return { ...response, body: { ...body, result: null } };
}
