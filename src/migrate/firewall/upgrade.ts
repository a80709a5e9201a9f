/**
 * The upgrade of one manifest: its filters + firewall rules converted (`convert.ts`), the text
 * rewritten (`rewrite.ts`), the diff, and the rewritten manifest loaded again, so what is proved and
 * what is written are the same text (checked against the live zone's plan when the caller knows it:
 * a manifest without `plan:` says nothing of the custom rules quota). A rewritten manifest that does not validate (a custom rules
 * quota the zone's plan exceeds, say) turns each of its issues into a `cannot-carry` finding.
 */
import { formatIssue, validateManifestText, type DesiredPlanTier, type DesiredZone } from '../../manifest/index.js';
import { manifestDiff } from '../rewrite.js';
import { convertFirewallRules, type FirewallConversion } from './convert.js';
import { rewriteFirewallRules } from './rewrite.js';

/** The upgrade of a manifest, before anything is written. */
export interface FirewallUpgrade {
  conversion: FirewallConversion;
  /** The rewritten manifest text. */
  text: string;
  /** A unified diff from the current text to `text` (empty when nothing changes). */
  diff: string;
  /** The rewritten manifest, loaded; undefined when it does not validate (the findings say why). */
  after?: DesiredZone;
  /** Firewall rule key -> the custom rule ref it became, where the two differ. */
  renames: Map<string, string>;
}

/** Whether a manifest has anything to upgrade. */
export function hasFirewallRules(desired: DesiredZone): boolean {
  return desired.filters.length > 0 || desired.firewallRules.length > 0;
}

/**
 * Converts and rewrites a manifest (its text and its loaded form, from the same text).
 * @example const up = upgradeFirewallManifest('zone.yaml', text, validateManifestText(text, 'zone.yaml').zone!);
 */
export function upgradeFirewallManifest(path: string, text: string, before: DesiredZone, options: { tier?: DesiredPlanTier } = {}): FirewallUpgrade {
  const reservedRefs = new Set((before.customRules ?? []).map((r) => r.ref));
  const conversion = convertFirewallRules({ filters: before.filters, firewallRules: before.firewallRules, reservedRefs });
  const rewritten = rewriteFirewallRules(text, { customRules: conversion.customRules, filters: before.filters, sources: conversion.sources });
  const renames = new Map<string, string>();
  for (const [ref, source] of conversion.sources) if (ref !== source.ruleKey) renames.set(source.ruleKey, ref);
  // `tier`: the live zone's plan (the cutover knows it), which wins over the manifest's `plan:` as in a plan.
  const loaded = validateManifestText(rewritten, path, options.tier !== undefined ? { tier: options.tier } : {});
  for (const issue of loaded.issues) {
    conversion.findings.push({ ref: issue.path === '' ? 'manifest' : issue.path, kind: 'cannot-carry', message: `the rewritten manifest would not validate (lines of the rewritten text): ${formatIssue(issue)}` });
  }
  const out: FirewallUpgrade = { conversion, text: rewritten, diff: manifestDiff(path, text, rewritten), renames };
  if (loaded.zone !== undefined && loaded.issues.length === 0) out.after = loaded.zone;
  return out;
}
