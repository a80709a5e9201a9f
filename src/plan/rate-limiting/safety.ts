/**
 * The weakening guard of rate limiting rules: `danger` findings (apply refuses them without
 * `--force`) when a plan lets more requests through. A rule allows a burst of `count`
 * (`requests_per_period` or `score_per_period`) and a sustained rate of `count / period`:
 *
 * | change | weakens when |
 * |---|---|
 * | count | it goes up (a bigger burst before the action; the rate goes up too) |
 * | `period` | it goes down for the same count (windows reset sooner: a higher rate); a longer one with the same count is stricter; a longer one with a proportionally larger count keeps the rate but allows a bigger burst (the count rule above) |
 * | `mitigation_timeout` | it goes down (the action lasts less; 0 throttles only the excess) |
 * | `action` | a stopping action (block, a challenge) becomes `log` |
 * | `enabled` | a stopping rule is disabled, or deleted |
 * | `requests_to_origin` | false -> true (cached requests no longer count) |
 * | `counting_expression` | it is set or changed (which requests count; reviewed by hand) |
 */
import type { AttributeValue, Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';

const Stopping = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);

function num(v: AttributeValue | undefined): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

function rate(a: Change['after']): number | undefined {
  if (a === null) return undefined;
  const count = num(a.requests_per_period) ?? num(a.score_per_period);
  const period = num(a.period);
  return count !== undefined && period !== undefined && period > 0 ? count / period : undefined;
}

/** Why a change of one rate limiting rule lets more requests through; none when it does not. */
export function weakenings(c: Change): string[] {
  const b = c.before;
  const a = c.after;
  if (b === null || c.action === 'create' || c.action === 'no-op') return [];
  if (a === null) return Stopping.has(String(b.action)) && b.enabled === true ? ['it is deleted'] : [];
  const out: string[] = [];
  const rb = rate(b);
  const ra = rate(a);
  const cb = num(b.requests_per_period) ?? num(b.score_per_period);
  const ca = num(a.requests_per_period) ?? num(a.score_per_period);
  if ((rb !== undefined && ra !== undefined && ra > rb) || (cb !== undefined && ca !== undefined && ca > cb)) out.push(`it allows more: ${String(b.requests_per_period ?? b.score_per_period)} per ${String(b.period)} s -> ${String(a.requests_per_period ?? a.score_per_period)} per ${String(a.period)} s`);
  const tb = num(b.mitigation_timeout);
  const ta = num(a.mitigation_timeout);
  if (tb !== undefined && ta !== undefined && ta < tb) out.push(`mitigation_timeout ${tb} -> ${ta} s${ta === 0 ? ' (throttle: only the requests over the rate)' : ''}`);
  if (Stopping.has(String(b.action)) && a.action === 'log') out.push(`action ${String(b.action)} -> log stops acting on the traffic it counts`);
  if (b.requests_to_origin === false && a.requests_to_origin === true) out.push('requests_to_origin false -> true: cached requests no longer count');
  if (a.counting_expression !== b.counting_expression && a.counting_expression !== '') out.push('counting_expression changes which requests count');
  return out;
}

/** The danger findings of one change of a rate limiting rule. */
export function rateLimitChangeFindings(c: Change): Finding[] {
  const about = { kind: c.kind, ref: c.ref };
  const name = `rate_limiting_rule "${c.ref !== '' ? c.ref : c.id ?? ''}"`;
  const out: Finding[] = [];
  const b = c.before;
  const a = c.after;
  if (b !== null && a !== null && b.enabled === true && a.enabled === false && Stopping.has(String(a.action))) {
    out.push(finding('disables-rate-limit', `${name}: a ${String(a.action)} rate limit is disabled`, about));
  }
  if (b !== null && a === null && b.enabled === true && Stopping.has(String(b.action))) {
    out.push(finding('disables-rate-limit', `${name}: a ${String(b.action)} rate limit is deleted`, about));
  }
  const why = a === null ? [] : weakenings(c);
  if (why.length > 0) out.push(finding('weakens-rate-limit', `${name}: ${why.join('; ')}`, about));
  return out;
}
