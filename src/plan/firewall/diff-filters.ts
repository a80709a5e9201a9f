/**
 * Changes of the filters the manifest declares: create, update in place, or replace when the live
 * filter was created by the simplified flow (the service refuses PUT and DELETE on those). A
 * replace deletes the old filter's rules first, asking the service to delete the filter with them
 * (`delete_filter_if_unused`: nothing else can delete a simplified-flow filter, and a repointed
 * rule would leave it behind for good), then creates the new filter and the rules again: the one
 * case where a rule's id changes.
 */
import type { DesiredFilter } from '../../manifest/index.js';
import { sameMeaning } from '../canonical.js';
import { changedAttributes, noOpChange, type Change, type ChangeReason } from '../change.js';
import { finding } from './findings.js';
import {
  desiredFilterAttributes,
  liveFilterAttributes,
  type FirewallContext,
} from './context.js';
import type { FilterBody, LiveFilter } from './live.js';
import type { MatchVia } from './match.js';

/** The body of a filter write. */
export function filterBody(d: DesiredFilter): FilterBody {
  return { expression: d.expression, paused: d.paused, description: d.description, ref: d.ref };
}

/** Changed attribute names of a matched filter: expressions by meaning, ref ignored when locked. */
function filterDifferences(ctx: FirewallContext, d: DesiredFilter, l: LiveFilter): string[] {
  const before = liveFilterAttributes(l, ctx.canon, d.expression);
  const after = desiredFilterAttributes(d);
  const changed = changedAttributes({ ...before, expression: '' }, { ...after, expression: '' });
  const c = ctx.canon(l.expression);
  if (!c.ok) {
    ctx.findings.push(finding('unparsable-live-expression',
      `filter "${d.ref}" (id ${l.id}): the zone's expression does not parse (${c.reason}); it is treated as different`,
      { kind: 'filter', ref: d.ref, location: d.location }));
  }
  if (!sameMeaning(ctx.canon, l.expression, d.expression)) changed.unshift('expression');
  // A simplified-flow filter cannot be given a ref; it stays matched through its rule.
  return l.locked === true ? changed.filter((n) => n !== 'ref') : changed;
}

/** The fast path of large no-op plans: nothing differs (no attribute objects are built). */
function inSync(ctx: FirewallContext, d: DesiredFilter, l: LiveFilter): boolean {
  if (l.paused !== d.paused || (l.description ?? '') !== d.description) return false;
  if (l.locked !== true && (l.ref ?? '') !== d.ref) return false;
  return sameMeaning(ctx.canon, l.expression, d.expression);
}

function updateReason(via: MatchVia | undefined, changed: string[]): ChangeReason {
  if (via === 'adopted') return 'adopted';
  return changed.includes('ref') ? 'renamed' : 'changed';
}

/** The change of the desired filter at `i`; records where the filter will be for the rules. */
function diffFilter(ctx: FirewallContext, d: DesiredFilter, i: number): Change {
  const l = ctx.match.filters[i];
  const via = ctx.match.filterVia[i];
  if (l === undefined) {
    const after = desiredFilterAttributes(d);
    ctx.filterTarget[i] = null;
    return { kind: 'filter', action: 'create', reason: 'new', ref: d.ref, before: null, after,
      changed: Object.keys(after), writes: [{ op: 'filter.create', body: filterBody(d) }] };
  }
  if (inSync(ctx, d, l)) {
    ctx.filterTarget[i] = l.id;
    return noOpChange('filter', d.ref, l.id);
  }
  const base = { kind: 'filter' as const, ref: d.ref, id: l.id, before: liveFilterAttributes(l, ctx.canon, d.expression), after: desiredFilterAttributes(d) };
  const changed = filterDifferences(ctx, d, l);
  if (l.locked !== true) {
    ctx.filterTarget[i] = l.id;
    if (changed.includes('expression')) ctx.expressionFreed.add(l.id);
    return { ...base, action: 'update', reason: updateReason(via, changed), changed,
      writes: [{ op: 'filter.update', id: l.id, body: filterBody(d) }] };
  }
  const sameExpression = !changed.includes('expression');
  if (sameExpression && via === 'adopted') {
    // The quota case's filter has no rule yet, so nothing can recreate it now: the rule is created
    // on it, and the next plan recreates both with these settings.
    ctx.filterTarget[i] = l.id;
    ctx.findings.push(finding('locked-filter-orphan',
      `filter "${d.ref}" (id ${l.id}) was created by the simplified flow without its rule; its ${changed.join(' and ')} cannot change until the rule exists: the next plan recreates both`,
      { kind: 'filter', ref: d.ref, location: d.location }));
    return noOpChange('filter', d.ref, l.id);
  }
  ctx.filterTarget[i] = null;
  ctx.replacedFilters.add(d.ref);
  ctx.recreateWithRule.add(l.id);
  const note = 'created by the simplified flow, which cannot be changed or deleted through the filters API: its rule is deleted first with delete_filter_if_unused (so the filter goes with it), and both are created again';
  return { ...base, action: 'replace', reason: 'locked-filter', changed,
    writes: [{ op: 'filter.create', body: filterBody(d) }], note };
}

/** Changes of every filter the manifest declares. */
export function diffDesiredFilters(ctx: FirewallContext): Change[] {
  return ctx.desired.filters.map((d, i) => diffFilter(ctx, d, i));
}
