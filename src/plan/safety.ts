/**
 * Safety checks (after octoDNS's `plan.py` thresholds): a plan that deletes more than a share of the
 * managed objects, or weakens protection (each kind says what weakens its objects: `<kind>/safety.ts`),
 * gets a `danger` finding per such change, which makes apply refuse without `--force`. Pure: reads
 * the changes' before/after attributes, and the zone for findings that span changes.
 */
import type { DesiredZone } from '../manifest/index.js';
import { changeLabel, type Change } from './change.js';
import { sharedFinding, type Finding } from './finding.js';
import { PlanKinds, resourceOf } from './kinds.js';
import type { LiveZone } from './live.js';
import type { PlanSettings } from './plan.js';

/** Defaults of the safety thresholds. */
export const SafetyDefaults = {
  /** Percentage of managed objects one plan may delete... */
  deleteThreshold: 30,
  /** ...once the zone has at least this many managed objects. */
  minObjects: 10,
} as const;

function deleteThreshold(changes: readonly Change[], settings: PlanSettings): Finding[] {
  // Counted, not listed: a no-op plan at the quota has thousands of managed objects.
  let managed = 0;
  const deletes: Change[] = [];
  changes.forEach((c) => {
    if (!resourceOf(c.kind).counted || c.id === undefined || (c.ref === '' && c.reason !== 'prune')) return;
    managed++;
    if (c.action === 'delete') deletes.push(c);
  });
  if (managed < settings.minObjects || deletes.length * 100 <= managed * settings.deleteThreshold) return [];
  const pct = Math.round((deletes.length * 100) / managed);
  const names = deletes.slice(0, 10).map(changeLabel).join(', ') + (deletes.length > 10 ? `, and ${deletes.length - 10} more` : '');
  return [sharedFinding('deletes-too-many',
    `the plan deletes ${deletes.length} of ${managed} managed objects (${pct}%, more than the ${settings.deleteThreshold}% threshold): ${names}; apply with --force if this is intended, or raise --delete-threshold`)];
}

/** The danger findings of a list of changes; `zone` says which objects use which once the plan is applied. */
export function safetyFindings(changes: readonly Change[], settings: PlanSettings, zone: { desired: DesiredZone; live: LiveZone }): Finding[] {
  const out: Finding[] = [];
  changes.forEach((c) => {
    if (c.action === 'no-op' || c.action === 'create') return;
    const found = resourceOf(c.kind).kind.changeFindings?.(c);
    if (found !== undefined && found.length > 0) out.push(...found);
  });
  for (const kind of PlanKinds) if (kind.planFindings !== undefined) out.push(...kind.planFindings(changes, zone));
  return [...out, ...deleteThreshold(changes, settings)];
}
