/**
 * What a zone's plan tier allows, checked against a desired zone once the tier is known (from the
 * manifest's `plan:` offline, or from the provider at plan time; the provider's wins). Each kind
 * owns its rules (its `checkTier`, reference/api-facts.md §3-§6); this asks every kind, in the order
 * of `kinds.ts`, which is the order of the issues. These count the manifest alone;
 * `src/plan/quota.ts` adds what the live zone keeps.
 */
import type { DesiredPlanTier, DesiredZone, SourceLocation } from './desired.js';
import { aliasNote } from './source-location.js';
import { formatPath, type DocPath, type ManifestIssue } from './errors.js';
import type { TierReport } from './kind.js';
import { kinds } from './kinds.js';

/** A desired zone's last check: the tier and WAF it was checked on, and what it found. */
interface LastCheck {
  plan: DesiredPlanTier;
  waf: 'previous' | 'new' | 'unknown' | undefined;
  issues: readonly ManifestIssue[];
}

/**
 * Each desired zone's last check. A run checks a zone when its manifest is validated (on its
 * `plan:`), then again when it is planned (on the live zone's tier, which wins): when both are the
 * same tier and WAF, the plan's check is the validation's answer, not a second walk of every kind.
 * Desired zones are not changed once validated.
 */
const lastChecks = new WeakMap<DesiredZone, LastCheck>();

/**
 * Issues for what the zone's plan does not allow. `zone.plan` undefined (tier unknown): no issues.
 * Checked once per desired zone, tier and WAF (`lastChecks`).
 * @example checkAgainstZone(desired, { plan: 'pro' }) // [{ path: 'firewall_rules.audit.action', message: 'log needs ...' }]
 */
export function checkAgainstZone(desired: DesiredZone, zone: { plan?: DesiredPlanTier; waf?: 'previous' | 'new' | 'unknown' }): ManifestIssue[] {
  const tier = zone.plan;
  if (tier === undefined) return [];
  const last = lastChecks.get(desired);
  if (last !== undefined && last.plan === tier && last.waf === zone.waf) return [...last.issues];
  const issues = checkTiers(desired, tier, zone.waf);
  lastChecks.set(desired, { plan: tier, waf: zone.waf, issues: [...issues] });
  return issues;
}

/** Every kind's tier checks of `desired` on `tier` (and `waf`, when known). */
function checkTiers(desired: DesiredZone, tier: DesiredPlanTier, waf: 'previous' | 'new' | 'unknown' | undefined): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const report: TierReport = {
    tier,
    ...(waf !== undefined ? { waf } : {}),
    on: `(the zone is on the ${tier} plan)`,
    add: (location: SourceLocation | undefined, path: DocPath, message: string): void => {
      issues.push({ file: desired.file, line: location?.line ?? 0, column: location?.column ?? 0, path: formatPath(path), message: `${message}${aliasNote(location?.alias)}` });
    },
  };
  for (let k = 0; k < kinds.length; k++) kinds[k].checkTier?.(desired, report);
  return issues;
}
