/**
 * The duplicate-expression pre-check. The service refuses to create a filter whose expression
 * (compared by meaning) equals an existing filter's (error 10102). Creates run after filter
 * updates and before deletions, so a filter to create conflicts with every live filter that still
 * holds the expression at that point: unmanaged filters, filters this plan deletes (a rename
 * without `renamed_from`), and simplified-flow filters that are only removed later. The plan says
 * so before apply instead of failing halfway.
 */
import type { DesiredFilter } from '../../manifest/index.js';
import { desiredKey } from '../canonical.js';
import type { Change } from '../change.js';
import { finding } from './findings.js';
import type { FirewallContext } from './context.js';
import type { LiveFilter } from './live.js';
import type { Write } from '../write.js';

/** Live filters by the equivalence key of their expression (the service's duplicate check compares meaning). */
function byKey(ctx: FirewallContext): Map<string, LiveFilter[]> {
  const out = new Map<string, LiveFilter[]>();
  for (const l of ctx.match.liveFilters) {
    const c = ctx.canon(l.expression);
    if (!c.ok) continue;
    const list = out.get(c.key);
    if (list === undefined) out.set(c.key, [l]);
    else list.push(l);
  }
  return out;
}

/** Whether a live filter still holds its expression when the create phase runs. */
function holdsAtCreate(ctx: FirewallContext, l: LiveFilter): boolean {
  if (ctx.expressionFreed.has(l.id)) return false;
  // Deleted (with its rule) in the delete-first phase.
  if (ctx.recreateWithRule.has(l.id)) return false;
  return true;
}

function conflictMessage(ref: string, l: LiveFilter, ctx: FirewallContext): { code: 'duplicate-expression' | 'locked-filter-duplicate'; text: string } {
  const lref = l.ref ?? '';
  const head = `filter "${ref}": the zone's filter ${l.id}`;
  if (l.locked === true) {
    const orphan = !ctx.live.firewallRules.some((r) => r.filter.id === l.id);
    return { code: 'locked-filter-duplicate', text: orphan
      ? `${head} was created by the simplified flow without its rule (the quota case) and has the same expression; it can be neither changed nor deleted, and the service refuses duplicates: write "${ref}" inline in its rule so zonewall creates the rule on that filter`
      : `${head} (created by the simplified flow) has the same expression and the service refuses duplicates; it goes away with its rule only after this filter would be created: delete that rule first` };
  }
  if (lref === '') {
    return { code: 'duplicate-expression', text: `${head} has the same expression but is not managed by zonewall, and the service refuses duplicates: adopt it with \`zonewall export\`, or plan with --prune to take it over` };
  }
  const claimedBy = claimerOf(ctx, l);
  if (claimedBy !== undefined) {
    return { code: 'duplicate-expression', text: `${head} ("${claimedBy.ref}" in the manifest) keeps the same expression; the service refuses duplicates` };
  }
  return { code: 'duplicate-expression', text: `${head} ("${lref}", deleted by this plan) has the same expression, and the service refuses duplicates before the old one is deleted: if "${ref}" is "${lref}" renamed, add \`renamed_from: ${lref}\`` };
}

const isFilterCreate = (w: Write) => w.op === 'filter.create';

/** The desired filter that matched a live filter. */
function claimerOf(ctx: FirewallContext, l: LiveFilter): DesiredFilter | undefined {
  const i = ctx.match.filters.findIndex((m) => m !== undefined && m.id === l.id);
  return i < 0 ? undefined : ctx.desired.filters[i];
}

/** Findings for filters this plan creates whose expression the zone or the manifest already has. */
export function checkDuplicates(ctx: FirewallContext, changes: readonly Change[]): void {
  const seen = new Map<string, string>();
  ctx.desired.filters.forEach((d) => {
    const key = desiredKey(ctx.canon, d.expression);
    const other = seen.get(key);
    if (other !== undefined) {
      ctx.findings.push(finding('duplicate-desired-expression',
        `filters "${other}" and "${d.ref}" have the same expression; the service refuses duplicates: share one filter between the rules`,
        { kind: 'filter', ref: d.ref, location: d.location }));
    } else seen.set(key, d.ref);
  });
  const creates = changes.filter((c) => c.kind === 'filter' && c.writes.length > 0 && c.writes.some(isFilterCreate));
  if (creates.length === 0) return;
  const live = byKey(ctx);
  for (const c of creates) {
    for (const w of c.writes) {
      if (w.op !== 'filter.create') continue;
      const holders = (live.get(desiredKey(ctx.canon, w.body.expression)) ?? []).filter((l) => l.id !== c.id && holdsAtCreate(ctx, l));
      const index = ctx.desiredFilterIndex(c.ref);
      const location = index === undefined ? undefined : ctx.desired.filters[index]!.location;
      for (const l of holders) {
        // Two desired filters with one expression are reported once, above.
        const claimerExpression = claimerOf(ctx, l)?.expression;
        if (claimerExpression !== undefined && desiredKey(ctx.canon, claimerExpression) === desiredKey(ctx.canon, w.body.expression)) continue;
        const { code, text } = conflictMessage(c.ref, l, ctx);
        ctx.findings.push(finding(code, text, { kind: 'filter', ref: c.ref, ...(location ? { location } : {}) }));
      }
    }
  }
}
