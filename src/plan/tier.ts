/**
 * Plan-tier checks once the zone's tier is known: the manifest module owns the rules (what each
 * tier allows, `checkAgainstZone`); this file turns its issues into `tier` error findings with
 * their manifest locations. The live zone's tier wins over the manifest's `plan:`.
 */
import { checkAgainstZone, type DesiredZone } from '../manifest/index.js';
import { finding, type Finding } from './finding.js';
import type { LiveZone } from './live.js';

/** `tier` error findings for what the zone's plan tier does not allow. */
export function tierFindings(desired: DesiredZone, live: LiveZone): Finding[] {
  const plan = live.zone.plan ?? desired.plan;
  if (plan === undefined) return [];
  return checkAgainstZone(desired, { plan }).map((issue) => finding('tier', `${issue.path}: ${issue.message}`,
    { location: { file: issue.file, line: issue.line, column: issue.column } }));
}
