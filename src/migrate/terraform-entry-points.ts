/**
 * The zone's entry point ruleset resources, one row of the phase table (`terraform-phases.ts`)
 * each: the custom and rate limiting phases into their sections, the managed phase into
 * `managed_rules` (`terraform-ruleset.ts`); a second entry point of a phase, or a phase without a
 * manifest section, is reported.
 */
import { str } from './terraform-attributes.js';
import type { ConvertedManifest } from './terraform-converted.js';
import { rulesetPhase } from './terraform-phases.js';
import { convertRuleset, isManagedPhaseRuleset } from './terraform-ruleset.js';
import type { TfResource } from './terraform-state.js';

/**
 * Converts the zone's entry point rulesets, one row of the phase table (terraform-phases.ts) each:
 * the custom phase into `custom_rules`, the managed phase into `managed_rules`; a phase whose
 * section is not in this build is reported with its reason.
 */
export function convertRulesets(rs: TfResource[], out: ConvertedManifest): void {
  for (const r of rs) {
    const phase = str(r.attributes, 'phase');
    const row = rulesetPhase(phase);
    if (row === undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `ruleset of phase ${phase ?? '(none)'}: zonewall has no manifest section for this phase; left to Terraform` });
      continue;
    }
    if (isManagedPhaseRuleset(r.attributes)) {
      if (out.managedRules !== undefined) {
        out.notes.push({ address: r.address, severity: 'skipped', message: `a second ruleset of the managed phase (the first is ${out.managedRules.address}): a zone has one entry point per phase` });
        continue;
      }
      const { entries, exceptions, problems } = convertRuleset(r.attributes);
      for (const message of problems) out.notes.push({ address: r.address, severity: 'warning', message });
      out.managedRules = { address: r.address, entries, exceptions };
      out.converted.push(r.address);
      continue;
    }
    if (row.convert === undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `ruleset of phase ${row.phase}: ${row.notYet ?? 'not converted yet'}` });
      continue;
    }
    const first = row.section === 'rate_limiting_rules' ? out.rateLimitRules : out.customRules;
    if (first !== undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `a second ruleset of the ${row.phase} phase (the first is ${first.address}): a zone has one entry point per phase` });
      continue;
    }
    const converted = row.convert(r);
    for (const message of converted.problems) out.notes.push({ address: r.address, severity: 'warning', message });
    if (converted.custom !== undefined) out.customRules = converted.custom;
    if (converted.rateLimit !== undefined) out.rateLimitRules = converted.rateLimit;
    out.converted.push(r.address);
  }
}
