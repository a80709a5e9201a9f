/**
 * Compiled expressions for the trace, cached by phase and source: catalog rules, firewall rule
 * filters and entry point rules are compiled once per process and reused across traces (the
 * catalog's are the same for every zone). The cache is bounded; when full it is simply cleared.
 */
import { ExecutionContext, compile, parse, type CompiledFilter, type Phase } from '../../expr/index.js';

const cache = new Map<string, CompiledFilter>();
const MAX_ENTRIES = 5000;

/** The compiled form of `source` in `phase` (expressions were validated when stored). */
export function matcher(source: string, phase: Phase): CompiledFilter {
  const key = `${phase}\u0000${source}`;
  let fn = cache.get(key);
  if (fn === undefined) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    fn = compile(parse(source, { phase }));
    cache.set(key, fn);
  }
  return fn;
}

/** Whether the request matches `source` (one shared context caches the request's field values). */
export function matches(source: string, phase: Phase, request: ExecutionContext): boolean {
  return matcher(source, phase)(request);
}

/** Phases the trace evaluates in. */
export const TracePhases = { firewall: 'http_request_firewall_custom', managed: 'http_request_firewall_managed' } as const satisfies Record<string, Phase>;
