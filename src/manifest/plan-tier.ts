/**
 * What the kinds' plan-tier checks share: the order of the tiers, and whether a canonical
 * expression uses the plan-gated `matches` operator. The expression check records what it found
 * when it parsed the manifest (`recordMatches`), so checking a zone against its tier, at validation
 * and again at plan time, parses nothing again.
 */
import { parse, inspect } from '../expr/index.js';
import type { DesiredPlanTier } from './desired.js';

const rank: Record<DesiredPlanTier, number> = { free: 0, pro: 1, business: 2, enterprise: 3 };

/** True when `tier` is `least` or a higher tier. */
export function tierAtLeast(tier: DesiredPlanTier, least: DesiredPlanTier): boolean {
  return rank[tier] >= rank[least];
}

/** Whether a canonical expression uses `matches`, by expression. */
const matchesCache = new Map<string, boolean>();

/** Records whether `canonical` (of the default phase) uses `matches`, as the expression check found. */
export function recordMatches(canonical: string, uses: boolean): void {
  if (matchesCache.size > 10_000) matchesCache.clear();
  matchesCache.set(canonical, uses);
}

function parsedUsesMatches(expression: string): boolean {
  try {
    return inspect(parse(expression)).operators.has('matches');
  } catch {
    return false; // the manifest checks report bad expressions; nothing to add here
  }
}

/** Whether the canonical `expression` (of the default phase) uses `matches`. */
export function usesMatches(expression: string): boolean {
  const known = matchesCache.get(expression);
  if (known !== undefined) return known;
  const uses = parsedUsesMatches(expression);
  recordMatches(expression, uses);
  return uses;
}
