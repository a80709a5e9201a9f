/**
 * Phase 1's admission rules (seed 002: "Phase 1 allowed a subset of zones"), which apply to check,
 * config and the entry point PUT when the request does not carry `phase_two=1`. Phase 1 admitted:
 *
 * - zones with the previous WAF off (zone setting `waf: off`), or on with only the vendor
 *   (CloudFlare) package: the OWASP package's sensitivity `off` (11012 otherwise);
 * - without firewall rules that bypass WAF managed rules (`bypass` with product `waf`) and without
 *   Page Rules that disable or enable it (`disable_security`, `waf: on|off`), paused/disabled
 *   ones included, since the migration would still have to carry them (11013 otherwise);
 * - without URI-based WAF overrides (11001, as in phase 2).
 */
import type { PageRuleLike } from '../page-rules/index.js';
import type { Sensitivity } from '../previous-waf/model.js';
import { rulesToMigrate, type FirewallRuleLike } from './check.js';
import { refusal, type Refusal } from './state-machine.js';

/** What phase 1 looks at. */
export interface PhaseOneInput {
  /** The zone setting `waf`. */
  previousWafOn: boolean;
  owaspSensitivity: Sensitivity;
  firewallRules: readonly FirewallRuleLike[];
  pageRules: readonly PageRuleLike[];
}

/** Why phase 1 would not admit the zone (empty when it would). */
export function phaseOneBlockers(input: PhaseOneInput): Refusal[] {
  const out: Refusal[] = [];
  if (input.previousWafOn && input.owaspSensitivity !== 'off') {
    out.push(refusal('phaseOneOwasp',
      `phase 1 admits zones whose previous WAF is off or runs only the CloudFlare (vendor) package; this zone's OWASP package is on (sensitivity ${input.owaspSensitivity}): ask for phase 2 with phase_two=1, or set the OWASP sensitivity to off`));
  }
  const bypass = rulesToMigrate(input.firewallRules).length;
  const pages = input.pageRules.length;
  if (bypass + pages > 0) {
    const what = [bypass > 0 ? `${bypass} firewall rule${bypass === 1 ? '' : 's'} bypassing WAF managed rules` : '', pages > 0 ? `${pages} Page Rule${pages === 1 ? '' : 's'} with disable_security or waf` : ''].filter(Boolean).join(' and ');
    out.push(refusal('phaseOneBypass',
      `phase 1 admits no firewall rules or Page Rules that bypass, enable or disable WAF managed rules; this zone has ${what}: ask for phase 2 with phase_two=1, which migrates them to skip rules`));
  }
  return out;
}
