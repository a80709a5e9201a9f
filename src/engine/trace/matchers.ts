/**
 * Compiled expressions for the trace, cached by phase and source: catalog rules, firewall rule
 * filters and entry point rules are compiled once per process and reused across traces (the
 * catalog's are the same for every zone). The cache is bounded; when full it is simply cleared.
 */
import { CustomPhase, ManagedPhase } from '../../api/index.js';
import { ExecutionContext, compile, parse, type CompiledFilter, type Lists, type Phase } from '../../expr/index.js';

// Keyed by phase, then by source: a look-up hashes the source string itself (V8 keeps a string's
// hash once computed, and catalog and stored sources are the same string objects trace after
// trace), where a combined `phase + source` key would build and hash a new string every time.
const cache = new Map<Phase, Map<string, CompiledFilter>>();
const MAX_ENTRIES = 5000;
let entries = 0;

/** The compiled form of `source` in `phase` (expressions were validated when stored). */
export function matcher(source: string, phase: Phase): CompiledFilter {
  let byPhase = cache.get(phase);
  if (byPhase === undefined) cache.set(phase, (byPhase = new Map()));
  let fn = byPhase.get(source);
  if (fn === undefined) {
    if (entries >= MAX_ENTRIES) {
      for (const m of cache.values()) m.clear();
      entries = 0;
    }
    fn = compile(parse(source, { phase }));
    byPhase.set(source, fn);
    entries++;
  }
  return fn;
}

/** Expressions that use `$name`, compiled with the lists they were evaluated with (one entry per lists object). */
const withLists = new WeakMap<Lists, Map<string, CompiledFilter>>();

/**
 * Whether the request matches `source` (one shared context caches the request's field values). An
 * expression that uses a list (`$name`) is compiled with the request's lists (`ExecutionContext.lists`).
 */
export function matches(source: string, phase: Phase, request: ExecutionContext): boolean {
  const lists = request.lists;
  if (lists === undefined || !source.includes('$')) return matcher(source, phase)(request);
  let byLists = withLists.get(lists);
  if (byLists === undefined) withLists.set(lists, (byLists = new Map()));
  const key = `${phase}\u0000${source}`;
  let fn = byLists.get(key);
  if (fn === undefined) byLists.set(key, (fn = compile(parse(source, { phase }), { lists })));
  return fn(request);
}

/** Phases the trace evaluates in. */
export const TracePhases = { firewall: CustomPhase, managed: ManagedPhase } as const satisfies Record<string, Phase>;
