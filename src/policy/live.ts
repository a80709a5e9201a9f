/**
 * `--against-zone`: the same cases through the live zone, so what the zone really does, drift
 * included, is what is judged. The zone is read once, to name what the trace reports by the
 * manifest's keys (firewall rules, custom rules and entry point rules by `ref`). The cases go to
 * zonewall's batch of the request tracer (`POST .../request-tracer/trace/batch`: `zonewall serve`, the
 * embedded engine), up to 500 a call; where there is no such route (the real service, `serve
 * --strict`: 404), each case is one call of the service's request tracer (`tracer.ts`), a few at a
 * time over HTTP; where the service has no tracer either (404/405), the zone as read is
 * evaluated here with the engine's own trace evaluators (`live-model.ts`). What is evaluated here (those
 * cases, a burst where the service has no burst route, the previous WAF's verdict where the tracer
 * does not tell it) resolves `$name` to the zone's account's lists, read through the provider once
 * per run when first needed (`live-lists.ts`), as the service resolves them.
 */
import type { DesiredZone } from '../manifest/index.js';
import { indexedTrace, traceBurst, type StoredRuleset, type ZoneTraceInput } from '../engine/index.js';
import { TracerBatchLimit, type BurstTrace, type TracerRequestBody, type TracerResult } from '../api/index.js';
import { ExecutionContext, requestFields, type Lists, type RequestDescription } from '../expr/index.js';
import { judgeBurst } from './burst.js';
import { mapLimit, ServiceError, type Provider, type TraceRequest, type TraceResult } from '../providers/index.js';
import { judgeCase } from './judge.js';
import { readZoneLists } from './live-lists.js';
import { liveTraceInput, traceLocally } from './live-model.js';
import { traceRequestOf } from './offline.js';
import { tracerBodyOf, zoneTraceOfTracer } from './tracer.js';
import type { CaseResult, TestCase } from './types.js';
import { verdictOf, type ZoneNames } from './verdict.js';

/** Trace calls in flight at once over HTTP (the embedded engine runs them one by one anyway). */
export const TraceConcurrency = 8;

type LiveZone = Awaited<ReturnType<Provider['readZone']>>;

/** The names of a live zone's rules, from one read of the zone. */
export function liveNames(live: LiveZone): ZoneNames {
  const expressions = new Map(live.firewallRules.map((r) => [r.id, 'expression' in r.filter ? r.filter.expression : undefined]));
  const refs = new Map((live.entrypoint?.rules ?? []).map((r) => [r.id ?? '', r.ref || r.id || '']));
  const custom = new Map((live.customEntrypoint?.rules ?? []).map((r) => [r.ref ?? r.id, r.expression]));
  return { expressionOf: (id) => expressions.get(id), entrypointRef: (id) => refs.get(id) ?? id, customExpressionOf: (ref) => custom.get(ref),
    customUnmanaged: (m) => m.ref === m.id };
}

/** Options of `runAgainstZone`. */
export interface AgainstZoneOptions {
  /** The run's account manifest's account (a name or id): its lists stand for the zone's when the service does not say the zone's account. */
  account?: string;
  /** What the report should say about how the cases were evaluated is pushed here (`readZoneLists`). */
  notes?: string[];
}

/**
 * Runs every case through the live zone's trace operation.
 * @example const results = await runAgainstZone(provider, desired, cases);
 */
export async function runAgainstZone(provider: Provider, desired: DesiredZone, cases: readonly TestCase[], options: AgainstZoneOptions = {}): Promise<CaseResult[]> {
  const trace = provider.trace?.bind(provider);
  const tracer = provider.requestTrace?.bind(provider);
  const { zone } = await provider.resolveZone(desired.zone);
  const live = await provider.readZone(zone.id);
  const names = liveNames(live);
  let local: ZoneTraceInput | undefined = trace === undefined && tracer === undefined ? liveTraceInput(live) : undefined;
  let asRead: ZoneTraceInput | undefined;
  let localTrace: ((context: ExecutionContext) => TraceResult) | undefined;
  // The account's lists as read, for what is evaluated here: read once, when first needed.
  let listsRead: Promise<Lists | undefined> | undefined;
  const listsAsRead = (): Promise<Lists | undefined> => (listsRead ??= readZoneLists(provider, live, zone.account, options.account, options.notes ?? []));
  const ask = async (request: TraceRequest): Promise<TraceResult> => {
    if (local === undefined) {
      try {
        if (tracer !== undefined) {
          const result = await tracer(zone.id, tracerBodyOf(request, zone.name));
          // The previous WAF's verdict is evaluated here only when the answer does not tell it (the service, a strict engine).
          const lists = result.zonewall === undefined && live.previousWaf !== null ? await listsAsRead() : undefined;
          return zoneTraceOfTracer(result, live, () => traceLocally(asRead ??= liveTraceInput(live), request, lists).previous_waf);
        }
        return await trace!(zone.id, request);
      } catch (err) {
        if (!(err instanceof ServiceError && (err.status === 404 || err.status === 405))) throw err;
        local = liveTraceInput(live);
      }
    }
    // The zone as read, its rules compiled and indexed once for the run, `$name` the account's lists as read.
    const lists = await listsAsRead();
    localTrace ??= indexedTrace(local, lists);
    return localTrace(new ExecutionContext(requestFields(request as RequestDescription), lists));
  };
  const limit = provider.kind === 'http' ? TraceConcurrency : 1;
  // zonewall's batch route first (`tracer-batch.ts`): the traces of every plain case in a few calls.
  const batched = tracer !== undefined && provider.requestTraceBatch !== undefined
    ? await traceInBatches(provider, zone, cases.filter((c) => c.burst === undefined).map((c) => tracerBodyOf(traceRequestOf(c, desired.zone), zone.name)), limit)
    : undefined;
  let nextBatched = 0;
  const askBurst = async (c: TestCase): Promise<BurstTrace> => {
    const body = { request: traceRequestOf(c, desired.zone), burst: c.burst! };
    if (provider.traceBurst !== undefined) {
      try {
        return await provider.traceBurst(zone.id, body);
      } catch (err) {
        if (!(err instanceof ServiceError && (err.status === 404 || err.status === 405))) throw err;
      }
    }
    // No burst route (the real service, serve --strict): the zone as read, through the engine's own
    // code, `$name` the account's lists as read (as the route resolves them).
    const lists = await listsAsRead();
    return traceBurst(asRead ??= liveTraceInput(live), (live.rateLimitEntrypoint ?? undefined) as StoredRuleset | undefined, body.request as RequestDescription, body.burst, lists === undefined ? {} : { lists });
  };
  if (batched !== undefined) {
    // Cases in order; the bursts still go one call each.
    const lists = live.previousWaf !== null && batched.some((r) => r.zonewall === undefined) ? await listsAsRead() : undefined;
    const traced = (c: TestCase): TraceResult => zoneTraceOfTracer(batched[nextBatched++]!, live, () => traceLocally(asRead ??= liveTraceInput(live), traceRequestOf(c, desired.zone), lists).previous_waf);
    const plain = cases.map((c) => (c.burst === undefined ? judgeCase(c, verdictOf(traced(c), names)) : undefined));
    return mapLimit(cases, limit, async (c, i) => plain[i] ?? judgeBurst(c, await askBurst(c)));
  }
  return mapLimit(cases, limit, async (c) => (c.burst !== undefined
    ? judgeBurst(c, await askBurst(c))
    : judgeCase(c, verdictOf(await ask(traceRequestOf(c, desired.zone)), names))));
}

/** Requests of one batch call: at most the route's limit, and bodies well under `serve`'s 1 MiB. */
const BatchRequests = 500;
const BatchBytes = 768 * 1024;

/**
 * The tracer results of `bodies`, in order, through zonewall's batch route (`matched_only`: the
 * verdict reads matched steps only), a few calls in flight; undefined when the service has no
 * such route (the real service, `serve --strict`: 404) or refuses a batch (a request naming
 * another zone's host: 400), so the caller traces each case on its own, exactly as it would
 * without the route.
 */
async function traceInBatches(provider: Provider, zone: { id: string }, bodies: readonly TracerRequestBody[], limit: number): Promise<TracerResult[] | undefined> {
  if (bodies.length === 0) return [];
  const chunks: TracerRequestBody[][] = [];
  let chunk: TracerRequestBody[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = JSON.stringify(body).length;
    if (chunk.length > 0 && (chunk.length >= Math.min(BatchRequests, TracerBatchLimit) || bytes + size > BatchBytes)) {
      chunks.push(chunk);
      [chunk, bytes] = [[], 0];
    }
    chunk.push(body);
    bytes += size + 1;
  }
  chunks.push(chunk);
  try {
    const answers = await mapLimit(chunks, limit, (requests) => provider.requestTraceBatch!(zone.id, { requests, matched_only: true }));
    return answers.flatMap((a) => a.results);
  } catch (err) {
    if (err instanceof ServiceError && (err.status === 404 || err.status === 405 || err.status === 400 || err.status === 413)) return undefined;
    throw err;
  }
}
