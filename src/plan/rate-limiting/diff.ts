/**
 * The `http_ratelimit` phase: rate limiting rules matched by ref so ids never churn, as custom
 * rules are (`custom-rules/diff.ts`): one change per rule (create, update with `position` when it
 * moves, delete, no-op); a reorder moves the fewest rules (`phase-target.ts`); live rules
 * zonewall did not write (no ref, or the API's default ref) are listed and kept in place unless
 * `--prune`, so an entry point made in the dashboard is taken as it is. Without a
 * `rate_limiting_rules` section the phase is left alone.
 */
import type { DesiredRateLimitRule, DesiredZone } from '../../manifest/index.js';
import type { Canonicalizer } from '../canonical.js';
import { changedAttributes, noOpChange, type Change } from '../change.js';
import { phaseTarget } from '../phase-target.js';
import type { Finding } from '../finding.js';
import type { LiveZone } from '../live.js';
import type { UnmanagedObject } from '../plan.js';
import { describeRateLimitRule, desiredRateLimitAttributes, isUnmanagedRateLimitRule, liveRateLimitAttributes } from './attributes.js';
import type { LiveRateLimitRule } from './live.js';
import { chooseRateLimitWrites, type RateLimitTarget, type RateLimitWrite } from './writes.js';

/** What the phase diff found. */
export interface RateLimitDiff {
  changes: Change[];
  findings: Finding[];
  unmanaged: UnmanagedObject[];
  write: RateLimitWrite | null;
}

function leftovers(live: readonly LiveRateLimitRule[], claimed: ReadonlySet<number>, canon: Canonicalizer, prune: boolean) {
  const changes: Change[] = [];
  const unmanaged: UnmanagedObject[] = [];
  const kept = new Set<number>();
  live.forEach((r, i) => {
    if (claimed.has(i)) return;
    const own = !isUnmanagedRateLimitRule(r);
    if (!own && !prune) {
      kept.add(i);
      unmanaged.push({ kind: 'rate_limiting_rule', id: r.id, summary: describeRateLimitRule(r) });
      return;
    }
    const before = liveRateLimitAttributes(r, canon);
    changes.push({ kind: 'rate_limiting_rule', action: 'delete', reason: own ? 'not-in-manifest' : 'prune', ref: own ? r.ref! : '', id: r.id, before, after: null, changed: Object.keys(before), writes: [] });
  });
  return { changes, unmanaged, kept };
}

function matchByRef(wanted: readonly DesiredRateLimitRule[], live: readonly LiveRateLimitRule[]): Map<DesiredRateLimitRule, number> {
  const byRef = new Map<string, number>();
  live.forEach((r, i) => { if (!isUnmanagedRateLimitRule(r) && !byRef.has(r.ref!)) byRef.set(r.ref!, i); });
  const out = new Map<DesiredRateLimitRule, number>();
  for (const d of wanted) { const i = byRef.get(d.ref); if (i !== undefined) out.set(d, i); }
  return out;
}

function wantedChange(item: RateLimitTarget, live: readonly LiveRateLimitRule[], canon: Canonicalizer): Change {
  const d = item.desired!;
  const after = desiredRateLimitAttributes(d);
  if (item.live === undefined) {
    return { kind: 'rate_limiting_rule', action: 'create', reason: 'new', ref: d.ref, before: null, after: { ...after, position: item.position }, changed: Object.keys(after), writes: [] };
  }
  const l = live[item.live]!;
  const before = liveRateLimitAttributes(l, canon, d);
  if (item.moved) { before.position = item.live + 1; after.position = item.position; }
  const changed = changedAttributes(before, after);
  if (item.moved && !changed.includes('position')) changed.push('position');
  if (changed.length === 0) return noOpChange('rate_limiting_rule', d.ref, l.id);
  const reason = changed.every((n) => n === 'position') ? 'reordered' : 'changed';
  return { kind: 'rate_limiting_rule', action: 'update', reason, ref: d.ref, id: l.id, before, after, changed, writes: [] };
}

/** Changes of the phase, and its writes when anything differs. */
export function diffRateLimit(desired: DesiredZone, live: LiveZone, canon: Canonicalizer, prune: boolean): RateLimitDiff {
  const wanted = desired.rateLimitingRules;
  if (wanted === undefined) return { changes: [], findings: [], unmanaged: [], write: null };
  const entry = live.rateLimitEntrypoint ?? null;
  const liveRules = entry?.rules ?? [];
  const matched = matchByRef(wanted, liveRules);
  const left = leftovers(liveRules, new Set(matched.values()), canon, prune);
  const target = phaseTarget<DesiredRateLimitRule>(wanted, liveRules, matched, left.kept);
  const changes = [...target.filter((t) => t.desired !== undefined).map((t) => wantedChange(t, liveRules, canon)), ...left.changes];
  const write = changes.some((c) => c.action !== 'no-op') ? chooseRateLimitWrites(entry, target, changes, liveRules) : null;
  return { changes, findings: [], unmanaged: left.unmanaged, write };
}
