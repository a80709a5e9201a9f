/**
 * Plan-tier checks once the zone's tier is known: the manifest module owns the rules (what each
 * tier allows, `checkAgainstZone`); this file turns its issues into `tier` error findings with
 * their manifest locations. The live zone's tier wins over the manifest's `plan:`.
 */
import { checkAgainstZone, type DesiredZone } from '../manifest/index.js';
import { sharedFinding, type Finding } from './finding.js';
import type { LiveZone } from './live.js';

/** `tier` error findings for what the zone's plan tier does not allow. */
export function tierFindings(desired: DesiredZone, live: LiveZone): Finding[] {
  const plan = live.zone.plan ?? desired.plan;
  if (plan === undefined) return [];
  // The WAF the zone runs, when the plan read it (the migration state); else unknown.
  const waf = live.migration === null || live.migration === undefined ? 'unknown' : live.migration.waf_state === 'previous_only' ? 'previous' : 'new';
  return checkAgainstZone(desired, { plan, waf }).map((issue) => sharedFinding('tier', `${issue.path}: ${issue.message}`,
    { location: { file: issue.file, line: issue.line, column: issue.column } }));
}
