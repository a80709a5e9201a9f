/**
 * The generated corpus of an equivalence proof: requests built from the expressions themselves.
 * For each expression, every value of every probe (`probes.ts`) is tried twice: alone on a plain
 * request, and in the expression's witness (every comparison given a value that makes it true, or
 * false under a `not`, so the conjunctions of the expression hold) with that one comparison changed. A probe's value lands
 * in the request part the service derives the field from (path, host, a header, the query, the
 * client IP, the country), else in `fields`. Duplicates are dropped.
 */
import { parse, type Lists, type Phase } from '../../expr/index.js';
import type { TraceRequest } from '../../providers/index.js';
import { probesOf, type Probe, type ProbeTarget, type ProbeValue } from './probes.js';

/** A generated request and what it was built to test. */
export interface CorpusRequest {
  /** e.g. `http.request.uri.path = "/api" (witness of 3 expressions)`. */
  name: string;
  request: TraceRequest;
}

const Headers: Record<string, string> = {
  'http.user_agent': 'User-Agent', 'http.referer': 'Referer', 'http.cookie': 'Cookie', 'http.x_forwarded_for': 'X-Forwarded-For',
};

/** One field value written into a request. */
function put(request: TraceRequest, target: ProbeTarget, value: ProbeValue): void {
  const { field, key } = target;
  const text = String(value);
  if (key !== undefined) {
    if (field === 'http.request.headers') request.headers = { ...request.headers, [key]: text };
    else if (field === 'http.request.uri.args' || field === 'raw.http.request.uri.args') request.query = { ...(typeof request.query === 'object' ? request.query : {}), [key]: text };
    else if (field === 'http.request.cookies') request.headers = { ...request.headers, Cookie: `${key}=${text}` };
    else request.fields = { ...request.fields, [field]: { [key]: [value] } };
    return;
  }
  if (target.element === true) {
    request.fields = { ...request.fields, [field]: [value] };
    return;
  }
  const header = Headers[field];
  if (header !== undefined) request.headers = { ...request.headers, [header]: text };
  else if ((field === 'http.request.uri.path' || field === 'raw.http.request.uri.path') && text.startsWith('/') && !text.includes('?')) request.path = text;
  else if (field === 'http.host' && /^[A-Za-z0-9.-]+$/.test(text)) request.host = text;
  else if (field === 'http.request.method' && text !== '') request.method = text;
  else if (field === 'ip.src' && typeof value === 'string') request.ip = text;
  else if ((field === 'ip.src.country' || field === 'ip.geoip.country') && text !== '') request.country = text;
  else request.fields = { ...request.fields, [field]: value };
}

function requestOf(parts: readonly [ProbeTarget, ProbeValue][]): TraceRequest {
  const r: TraceRequest = {};
  for (const [target, value] of parts) put(r, target, value);
  return r;
}

const label = (t: ProbeTarget) => (t.key !== undefined ? `${t.field}["${t.key}"]` : t.element === true ? `${t.field}[*]` : t.field);

/** One expression's witness: each comparison given a value that makes the expression hold (the opposite one under `not`). */
function witnessOf(probes: readonly Probe[]): [ProbeTarget, ProbeValue][] {
  return probes.map((p): [ProbeTarget, ProbeValue] => [p.target, (p.values.find((v) => v.hit !== (p.negated === true)) ?? p.values[0]!).value]);
}

/** The requests of one expression's probes. */
function requestsOfProbes(probes: readonly Probe[], witness: readonly [ProbeTarget, ProbeValue][]): CorpusRequest[] {
  const out: CorpusRequest[] = [];
  out.push({ name: 'witness', request: requestOf(witness) });
  probes.forEach((p, i) => {
    for (const { value } of p.values) {
      const what = `${label(p.target)} = ${JSON.stringify(value)}`;
      out.push({ name: what, request: requestOf([[p.target, value]]) });
      if (probes.length > 1) out.push({ name: `${what} (others true)`, request: requestOf(witness.map((w, j) => (j === i ? [p.target, value] : w))) });
    }
  });
  return out;
}

/** An expression shortened for a request's name. */
const brief = (source: string) => (source.length > 60 ? `${source.slice(0, 57)}...` : source);

/**
 * The corpus of a set of expressions (canonical sources), deduplicated; the first request is a
 * plain one (no probe). `lists`: what `$name` resolves to, so list members are tried. `pairs`:
 * expressions (of `expressions`) whose witnesses are also tried together, after each expression's
 * own requests: two rules' order shows only on a request both match, and two expressions on
 * different fields (an office IP range, an admin path) have no such request among their own
 * probes. The proof asks for the pairs of rules whose order differs (`reorderedPairs`): every pair
 * would be quadratic (a zone of 1,000 rules: half a million requests).
 * @example generateCorpus(['http.request.uri.path eq "/a"'], 'http_request_firewall_custom')
 */
export function generateCorpus(expressions: Iterable<string>, phase: Phase, lists?: Lists, pairs: Iterable<readonly [string, string]> = []): CorpusRequest[] {
  const seen = new Map<string, CorpusRequest>();
  const add = (c: CorpusRequest) => {
    const key = JSON.stringify(c.request);
    if (!seen.has(key)) seen.set(key, c);
  };
  add({ name: 'plain request', request: {} });
  const witnesses = new Map<string, [ProbeTarget, ProbeValue][]>();
  for (const source of new Set(expressions)) {
    const probes = probesOf(parse(source, { phase }), lists);
    const parts = witnessOf(probes);
    witnesses.set(source, parts);
    for (const c of requestsOfProbes(probes, parts)) add(c);
  }
  for (const [a, b] of pairs) {
    const [first, second] = [witnesses.get(a), witnesses.get(b)];
    if (first === undefined || second === undefined || a === b) continue;
    add({ name: `witnesses of ${JSON.stringify(brief(a))} and ${JSON.stringify(brief(b))} together`, request: requestOf([...first, ...second]) });
  }
  return [...seen.values()];
}
