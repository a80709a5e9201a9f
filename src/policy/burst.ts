/**
 * Burst cases of `zonewall test`: a case with `burst` sends its request many times on a simulated
 * clock (the case's, never the wall clock) through the custom rules and then the rate limiting
 * rules, and is judged on what the rate limiting rules did. Offline the manifest's rules run
 * through the engine's own burst trace (`traceBurst`, the counting core the engine's
 * `POST /zones/{id}/trace/burst` runs); against a zone, that route, or, where the service has none,
 * the zone as read through the same code.
 *
 * | expectation | holds when |
 * |---|---|
 * | `first: {request, action, rule, until}` | the first request any rate limiting rule acted on is that one, with that action, by that rule, until that time (seconds on the burst's clock; `null`: a throttle) |
 * | `acted: n` | n requests got an action |
 * | `action: a` | the first action was a |
 * | `allowed: true` / `false` | no request got an action (and none was ended by the custom rules) / some did |
 * | `matched: [rate_limiting_rules.x]` | each of those rules acted |
 */
import type { BurstSpec, BurstTrace, BurstVary } from '../api/index.js';
import { traceBurst } from '../engine/index.js';
import type { RequestDescription } from '../expr/index.js';
import type { CaseResult, TestCase } from './types.js';
import type { ZoneModel } from './zone-model.js';

/** How cases name a rate limiting rule. */
export const RateLimitSection = 'rate_limiting_rules';

function outcome(t: BurstTrace): string {
  const f = t.first;
  if (f === null) return `no request of ${t.requests} got an action${t.ended_by_custom_rules > 0 ? ` (${t.ended_by_custom_rules} ended by the custom rules)` : ''}${t.skipped > 0 ? ` (${t.skipped} skipped rate limiting)` : ''}`;
  const until = f.until === null ? 'throttled (only the requests over the rate)' : `until ${f.until} s`;
  return `request ${f.first_request} (at ${f.at} s) got ${f.action} by ${RateLimitSection}.${f.ref}, ${until}; ${t.acted} of ${t.requests} requests got an action`;
}

/** The expectations of a burst case that `t` does not meet, one sentence each. */
export function burstFailures(c: TestCase, t: BurstTrace): string[] {
  const e = c.expect;
  const out: string[] = [];
  const f = t.first;
  const got = outcome(t);
  if (e.first !== undefined) {
    const want = e.first;
    const rule = want.rule?.startsWith(`${RateLimitSection}.`) ? want.rule.slice(RateLimitSection.length + 1) : want.rule;
    const bad = f === null
      || (want.request !== undefined && want.request !== f.first_request)
      || (want.action !== undefined && want.action !== f.action)
      || (rule !== undefined && rule !== f.ref)
      || (want.until !== undefined && want.until !== f.until);
    if (bad) out.push(`expected the first action ${JSON.stringify(want)}, got ${got}`);
  }
  if (e.acted !== undefined && e.acted !== t.acted) out.push(`expected ${e.acted} requests to get an action, got ${got}`);
  if (e.action !== undefined && f?.action !== e.action) out.push(`expected action ${e.action}, got ${got}`);
  if (e.allowed !== undefined) {
    const allowed = t.acted === 0 && t.ended_by_custom_rules === 0;
    if (e.allowed !== allowed) out.push(e.allowed ? `expected every request to pass, got ${got}` : `expected some request to be stopped, got ${got}`);
  }
  for (const name of e.matched ?? []) {
    if (!t.rules.some((r) => `${RateLimitSection}.${r.ref}` === name)) out.push(`expected ${name} to act, got ${got}`);
  }
  return out;
}

/** The result of a burst case given the zone's burst trace. */
export function judgeBurst(c: TestCase, t: BurstTrace): CaseResult {
  const failures = burstFailures(c, t);
  const f = t.first;
  return {
    name: c.name,
    pass: failures.length === 0,
    expected: c.expect,
    actual: { action: f?.action ?? null, decided_by: null, rule: f === null ? null : `${RateLimitSection}.${f.ref}`, matched: t.rules.map((r) => `${RateLimitSection}.${r.ref}`) },
    why: outcome(t),
    failures,
    location: c.location,
  };
}

/** The burst trace of a case through the manifest's model. */
export function traceBurstOffline(model: ZoneModel, c: TestCase, request: RequestDescription): BurstTrace {
  return traceBurst({ wafState: model.wafState, plan: model.plan, firewallRules: model.rules, entrypoint: model.entrypoint, customRules: model.customRules, previousWaf: model.previousWaf },
    model.rateLimitRules, request, c.burst!, model.lists === undefined ? {} : { lists: model.lists });
}

/**
 * The values of a `vary` list as a cases file gives them: a list, or one string with one value per
 * line (`\n` or `\r\n`; a final line break ends the last value and adds none). Anything else: undefined.
 */
export function varyValues(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value as string[];
  if (typeof value !== 'string') return undefined;
  const lines = value.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A case's `burst` (checked) as the trace takes it: `vary` values given one per line made lists. */
export function burstSpecOf(raw: Record<string, unknown>): BurstSpec {
  const spec = { ...raw } as BurstSpec;
  const vary = raw.vary as Record<string, unknown> | undefined;
  if (vary === undefined) return spec;
  const out: BurstVary = {};
  for (const key of ['ip', 'path', 'host'] as const) {
    const values = varyValues(vary[key]);
    if (values !== undefined) out[key] = values;
  }
  if (vary.headers !== undefined) {
    const headers: Record<string, string[]> = {};
    for (const [name, v] of Object.entries(vary.headers as Record<string, unknown>)) headers[name] = varyValues(v) ?? [];
    out.headers = headers;
  }
  spec.vary = out;
  return spec;
}

/** What the schema cannot say of a case's `burst`: `at` or `count`, not both; `vary` lists of one length. Each a message and the path under the burst. */
export function burstProblems(burst: unknown): { at: (string | number)[]; message: string }[] {
  if (typeof burst !== 'object' || burst === null || Array.isArray(burst)) return [];
  const b = burst as Record<string, unknown>;
  const out: { at: (string | number)[]; message: string }[] = [];
  if (b.at !== undefined && (b.count !== undefined || b.over !== undefined)) out.push({ at: ['at'], message: 'give either at (the times) or count and over, not both' });
  if (b.at === undefined && b.count === undefined) out.push({ at: [], message: 'a burst needs count (with over) or at (the times of the requests)' });
  if (Array.isArray(b.at) && b.at.some((t, i) => i > 0 && typeof t === 'number' && t < (b.at as number[])[i - 1]!)) out.push({ at: ['at'], message: 'the times of at must not go back' });
  const vary = typeof b.vary === 'object' && b.vary !== null ? b.vary as Record<string, unknown> : {};
  const headers = typeof vary.headers === 'object' && vary.headers !== null ? Object.values(vary.headers as Record<string, unknown>) : [];
  const lengths = [vary.ip, vary.path, vary.host, ...headers].map(varyValues).filter((l) => l !== undefined).map((l) => l.length);
  if (new Set(lengths).size > 1) out.push({ at: ['vary'], message: `every vary list needs the same length (one value per distinct request); got lengths ${lengths.join(', ')}` });
  return out;
}
