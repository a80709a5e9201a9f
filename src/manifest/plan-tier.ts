/**
 * What the kinds' plan-tier checks share: the order of the tiers, whether a canonical expression
 * uses the plan-gated `matches` operator, and the plan-gated fields it uses (`gatedFieldIssues`:
 * the engine's one table, `PlanGatedFields`, for every kind's expressions). The expression check records what it found
 * when it parsed the manifest (`recordMatches`), so checking a zone against its tier, at validation
 * and again at plan time, parses nothing again.
 */
import { planGatedUses } from '../api/index.js';
import { parse, inspect, type ParseOptions } from '../expr/index.js';
import type { DesiredPlanTier, SourceLocation } from './desired.js';
import type { DocPath } from './errors.js';
import type { TierReport } from './kind.js';

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

/** A cheap look at the source first: most expressions name no plan-gated field, and are not parsed again. */
const MaybeGated = /cf\.waf\.score|subdivision_|is_in_european_union|cf\.bot_management\.|http\.request\.body\./;

/**
 * The plan-gated fields (`PlanGatedFields`, the engine's table) `expression` uses that `tier` lacks,
 * in name order; none for an expression that does not parse (reported elsewhere). `phase`: the
 * phase whose fields it may use (a counting expression has the response's).
 */
export function gatedFields(expression: string, tier: DesiredPlanTier, phase?: ParseOptions['phase']): { field: string; tier: DesiredPlanTier; what: string }[] {
  if (!MaybeGated.test(expression)) return [];
  try {
    return planGatedUses(inspect(parse(expression, phase === undefined ? {} : { phase })).fields, tier);
  } catch {
    return [];
  }
}

/**
 * Reports each plan-gated field of `expression` that the report's tier lacks, at `location` (the
 * expression's) and `path`; `skip`: fields the kind refused already. Returns the fields reported.
 */
export function gatedFieldIssues(
  expression: string, location: SourceLocation | undefined, path: DocPath, { tier, on, add }: TierReport, phase?: ParseOptions['phase'], skip?: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (const g of gatedFields(expression, tier, phase)) {
    if (skip?.has(g.field)) continue;
    out.push(g.field);
    add(location, path, `${g.field} (${g.what}) needs ${g.tier === 'enterprise' ? 'an' : 'a'} ${capital(g.tier)} plan or higher ${on}`);
  }
  return out;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
