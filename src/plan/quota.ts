/**
 * The zone's quotas, checked against what the apply will actually hold, not against the manifest
 * alone: live objects the plan leaves in place (unmanaged ones, and managed ones it deletes only in
 * the last phases) count as the service counts them. A plan that passes here cannot stop at apply
 * time with a quota refusal (10200) after its first writes. Each kind checks its own quotas
 * (`<kind>/quota.ts`), in the order its writes run. The manifest's own counts (`checkAgainstZone`) already report a manifest
 * over a quota by itself; these findings cover what only the live zone adds.
 */
import type { DesiredZone } from '../manifest/index.js';
import type { Change } from './change.js';
import type { Finding } from './finding.js';
import { PlanKinds } from './kinds.js';
import type { LiveZone } from './live.js';
import type { PhaseWrite } from './write.js';

/**
 * `tier` error findings for quotas the apply would exceed once the live zone is counted.
 * @example quotaFindings(desired, live, plan.changes, plan.phaseWrites)
 */
export function quotaFindings(desired: DesiredZone, live: LiveZone, changes: readonly Change[], phaseWrites: readonly PhaseWrite[]): Finding[] {
  const tier = live.zone.plan ?? desired.plan;
  if (tier === undefined) return [];
  const zone = { desired, live };
  return PlanKinds.flatMap((kind) => kind.quotaFindings?.(tier, zone, changes, phaseWrites) ?? []);
}
