/**
 * Checks a cases file against the manifest it tests: every `matched` name must name a rule the
 * manifest has (a firewall rule key, a custom rule key, a deployed managed ruleset's ref, a rule of that ruleset in
 * the catalog, a previous WAF package and one of its rules), and a file that says which `zone` it
 * is for must be run with that zone's manifest. A typo becomes a located error with a suggestion,
 * instead of a case that can never pass.
 */
import { LegacyOwaspThresholdRuleId, ManagedRulesets, PreviousWafPackages } from '../engine/index.js';
import { closest, formatPath, type DesiredZone, type ManifestIssue } from '../manifest/index.js';
import type { CaseFile, TestCase } from './types.js';

/** Issues of `file` against the zone `desired` (empty when every name resolves). */
export function checkCasesAgainstZone(file: CaseFile, desired: DesiredZone): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  if (file.zone !== undefined && file.zone.toLowerCase() !== desired.zone.toLowerCase()) {
    const at = file.zoneLocation ?? { file: file.file, line: 0, column: 0 };
    issues.push({ file: file.file, line: at.line, column: at.column, path: 'zone', message: `these cases are for zone ${file.zone}, but ${desired.file} configures ${desired.zone}; pass the right manifest (or --cases file)` });
  }
  file.cases.forEach((c, i) => {
    // The path is recorded by the loader; a case built in code falls back to its index.
    (c.expect.matched ?? []).forEach((name, j) => {
      const problem = unknownName(name, desired);
      if (problem === undefined) return;
      const at = c.matchedLocations?.[j] ?? c.location;
      issues.push({ file: at.file, line: at.line, column: at.column, path: c.matchedPath ?? formatPath([i, 'expect', 'matched']), message: problem });
    });
  });
  return issues;
}

/** Why `name` names nothing in the manifest, or undefined when it resolves. */
function unknownName(name: string, desired: DesiredZone): string | undefined {
  const dot = name.indexOf('.');
  const section = name.slice(0, dot);
  const rest = name.slice(dot + 1);
  if (section === 'firewall_rules') {
    const keys = desired.firewallRules.map((r) => r.ref);
    if (keys.includes(rest)) return undefined;
    return `no firewall rule "${rest}" in ${desired.file}${hint(rest, keys)}`;
  }
  if (section === 'custom_rules') {
    const keys = (desired.customRules ?? []).map((r) => r.ref);
    if (keys.includes(rest)) return undefined;
    return `no custom rule "${rest}" in ${desired.file}${hint(rest, keys)}`;
  }
  if (section === 'rate_limiting_rules') {
    const keys = (desired.rateLimitingRules ?? []).map((r) => r.ref);
    return keys.includes(rest) ? undefined : `no rate limiting rule "${rest}" in ${desired.file}${hint(rest, keys)}`;
  }
  if (section === 'managed_rules') return unknownManaged(rest, desired);
  return unknownLegacy(rest);
}

/** A suggestion, or (for names a person chose, not catalog ids) the list of names there are. */
function hint(word: string, candidates: readonly string[], listThem = true): string {
  const best = closest(word, candidates);
  if (best !== undefined) return `; did you mean "${best}"?`;
  if (!listThem || candidates.length === 0) return '';
  return ` (it has: ${candidates.slice(0, 8).join(', ')}${candidates.length > 8 ? ', ...' : ''})`;
}

function unknownManaged(rest: string, desired: DesiredZone): string | undefined {
  const deployed = desired.managedRules ?? [];
  if (deployed.some((m) => m.ref === rest)) return undefined;
  // A managed-rules exception is named by its ref (it "matches" as a skip).
  const exceptions = (desired.managedExceptions ?? []).map((e) => e.ref);
  if (exceptions.includes(rest)) return undefined;
  const owner = deployed.find((m) => rest.startsWith(`${m.ref}.`));
  if (owner === undefined) {
    const refs = [...deployed.map((m) => m.ref), ...exceptions];
    return `no managed ruleset deployed with ref "${rest.split('.')[0]}" in ${desired.file}${hint(rest.split('.')[0]!, refs)}`;
  }
  const ruleId = rest.slice(owner.ref.length + 1);
  const ruleset = ManagedRulesets.find((r) => r.id === owner.rulesetId);
  if (ruleset === undefined || ruleset.rules.some((r) => r.id === ruleId)) return undefined;
  return `the ${ruleset.name} has no rule "${ruleId}"${hint(ruleId, ruleset.rules.map((r) => r.id), false)}`;
}

function unknownLegacy(rest: string): string | undefined {
  const [pkgName, ...ruleParts] = rest.split('.');
  const pkg = PreviousWafPackages.find((p) => p.alias === pkgName || p.id === pkgName);
  if (pkg === undefined) return `no previous WAF package "${pkgName}" (packages: ${PreviousWafPackages.map((p) => p.alias).join(', ')}, or a package id)`;
  if (ruleParts.length === 0) return undefined;
  const ruleId = ruleParts.join('.');
  const ids = pkg.groups.flatMap((g) => g.rules.map((r) => r.id));
  if (pkg.detection_mode === 'anomaly') ids.push(LegacyOwaspThresholdRuleId);
  if (ids.includes(ruleId)) return undefined;
  return `the previous WAF package ${pkg.name} has no rule "${ruleId}"${hint(ruleId, ids, false)}`;
}
