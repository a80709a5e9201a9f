/**
 * What a zone's plan tier allows, checked against a desired zone once the tier is known (from the
 * manifest's `plan:` offline, or from the provider at plan time; the provider's wins). Each kind
 * owns its rules (its `checkTier`, reference/api-facts.md §3-§6); this asks every kind, in the order
 * of `kinds.ts`, which is the order of the issues. These count the manifest alone;
 * `src/plan/quota.ts` adds what the live zone keeps.
 */
import type { DesiredPlanTier, DesiredZone, SourceLocation } from './desired.js';
import { formatPath, type DocPath, type ManifestIssue } from './errors.js';
import type { TierReport } from './kind.js';
import { kinds } from './kinds.js';

/**
 * Issues for what the zone's plan does not allow. `zone.plan` undefined (tier unknown): no issues.
 * @example checkAgainstZone(desired, { plan: 'pro' }) // [{ path: 'firewall_rules.audit.action', message: 'log needs ...' }]
 */
export function checkAgainstZone(desired: DesiredZone, zone: { plan?: DesiredPlanTier; waf?: 'previous' | 'new' | 'unknown' }): ManifestIssue[] {
  const tier = zone.plan;
  if (tier === undefined) return [];
  const issues: ManifestIssue[] = [];
  const report: TierReport = {
    tier,
    ...(zone.waf !== undefined ? { waf: zone.waf } : {}),
    on: `(the zone is on the ${tier} plan)`,
    add: (location: SourceLocation | undefined, path: DocPath, message: string): void => {
      issues.push({ file: desired.file, line: location?.line ?? 0, column: location?.column ?? 0, path: formatPath(path), message });
    },
  };
  for (let k = 0; k < kinds.length; k++) kinds[k].checkTier?.(desired, report);
  return issues;
}
