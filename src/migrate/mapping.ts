/**
 * The seed's mapping from the previous WAF to the new one, as pure functions: what a manifest's
 * `previous_waf` implies for the new WAF's managed rulesets, item by item, and which items cannot
 * migrate automatically.
 *
 * OWASP sensitivity (seed 002, "OWASP migration mapping"):
 *
 * | previous sensitivity        | paranoia level | score threshold |
 * |-----------------------------|----------------|-----------------|
 * | high                        | PL2            | medium (40)     |
 * | medium                      | PL1            | high (25)       |
 * | low                         | PL1            | medium (40)     |
 * | default (package untouched) | PL2            | medium (40)     |
 * | off                         | OWASP not deployed              |
 *
 * The seed also says "the migration sets the paranoia level of the new OWASP ruleset to PL2 (the old
 * 2.x version has no paranoia level)". Our reading: that sentence explains where the PL2 of the
 * `default` and `high` rows comes from (2.x has no level to carry over, so the migration picks PL2
 * for a zone at its defaults); it does not override the table's explicit PL1 for `medium` and `low`.
 * The table is the more specific statement, so it wins. The previous WAF's default sensitivity is
 * `high`, so `default` and `high` agree, which supports this reading.
 *
 * Action: `simulate` becomes `log`; `block` and `challenge` map directly (seed: "nearly direct").
 * OWASP group and rule overrides cannot migrate automatically (seed): the report lists them to
 * recreate. The seed is silent on the vendor (CloudFlare) package; we expect what the real service
 * does: a rule's mode becomes the behaviour of the Managed Ruleset rule that replaces it (`disable`:
 * disabled, `simulate`: log, `block`/`challenge`: that action; `default`: the old rule's default
 * mode), and a group turned off becomes a disabled category of the same name (`Cloudflare WordPress`
 * -> `wordpress`). The expectation is stated as behaviour (action and enabled), not as the presence
 * of an override, since the service writes an override only where the new default differs.
 */
import type { PreviousWafActionMode as ActionMode, PreviousWafSensitivity as Sensitivity } from '../api/index.js';
import type { LivePreviousWaf, LiveWafRule } from '../plan/index.js';
import {
  LegacyManagedRules,
  OwaspThresholds,
  PreviousWafDefaults,
  PreviousWafPackageIds,
} from './constants.js';
import type { ManagedRuleDefaults } from './constants.js';

/** Sensitivity and action mode of the previous WAF's OWASP package (`src/api`'s). */
export type { ActionMode, Sensitivity };
/** A row of the seed's OWASP table (`default`: the package at its defaults), or `off`. */
export type SensitivityRow = 'high' | 'medium' | 'low' | 'default' | 'off';

/** Previous WAF settings as a manifest states them (`DesiredPreviousWaf` fits this shape). */
export interface ManifestPreviousWafSettings {
  /** Package id to its settings; an absent package is at its defaults. */
  packages: Record<string, { sensitivity?: Sensitivity; action_mode?: ActionMode }>;
  /** Group id to mode. */
  groups: Record<string, 'on' | 'off'>;
  /** Rule id to mode. */
  rules: Record<string, string>;
}

/** What the package, group or rule belongs to: the OWASP package, the vendor package, or unknown. */
export type PackageKind = 'owasp' | 'vendor' | 'unknown';

/** Classifies previous-WAF ids; built from the live zone when it can still be read. */
export interface PreviousWafCatalog {
  packageKind(packageId: string): PackageKind;
  groupKind(groupId: string): PackageKind;
  ruleKind(ruleId: string): PackageKind;
  /** Human name of a group or rule when known (for the report). */
  name(id: string): string | undefined;
  /** The default mode of a traditional rule, when known. */
  defaultMode(ruleId: string): string | undefined;
}

/** The OWASP settings the seed's table gives for the package. */
export interface OwaspEquivalent {
  row: SensitivityRow;
  /** The previous settings, defaults filled in. */
  sensitivity: Sensitivity;
  actionMode: ActionMode;
  /** false when the package was `off`: the new OWASP ruleset is not deployed. */
  deployed: boolean;
  paranoiaLevel: 1 | 2;
  scoreThreshold: number;
  action: 'log' | 'block' | 'challenge';
}

/** The behaviour of a Managed Ruleset rule: its action and whether it runs. */
export interface RuleBehaviour {
  action?: string;
  enabled: boolean;
}

/** One vendor rule of the manifest and what it maps to. */
export interface VendorRuleEquivalent {
  legacyId: string;
  mode: string;
  /** The mode in effect: `default` resolved to the rule's default mode, when known. */
  effectiveMode?: string;
  /** The Managed Ruleset rule that replaces it and its defaults; undefined when unknown. */
  successor?: ManagedRuleDefaults;
  /** The behaviour the successor should have; undefined when the effective mode is unknown. */
  expected?: RuleBehaviour;
}

/** One vendor group of the manifest and the Managed Ruleset category it maps to. */
export interface VendorGroupEquivalent {
  groupId: string;
  mode: 'on' | 'off';
  name?: string;
  /** The category named like the group (`Cloudflare WordPress` -> `wordpress`), when the name is known. */
  category?: string;
}

/** A setting that cannot migrate automatically, with what to do instead. */
export interface ManualItem {
  kind: 'owasp-group' | 'owasp-rule' | 'unknown';
  id: string;
  mode: string;
  name?: string;
  advice: string;
}

/** Everything a `previous_waf` section implies for the new WAF. */
export interface MappingResult {
  owasp: OwaspEquivalent;
  vendorGroups: VendorGroupEquivalent[];
  vendorRules: VendorRuleEquivalent[];
  manual: ManualItem[];
}

/** The seed's OWASP table, keyed by row. */
export const OwaspSensitivityTable: Readonly<Record<Exclude<SensitivityRow, 'off'>, { paranoiaLevel: 1 | 2; scoreThreshold: number }>> = {
  high: { paranoiaLevel: 2, scoreThreshold: OwaspThresholds.medium },
  medium: { paranoiaLevel: 1, scoreThreshold: OwaspThresholds.high },
  low: { paranoiaLevel: 1, scoreThreshold: OwaspThresholds.medium },
  default: { paranoiaLevel: 2, scoreThreshold: OwaspThresholds.medium },
};

/** Maps a previous-WAF action mode to the new WAF's action (`simulate` becomes `log`). */
export function mapActionMode(mode: ActionMode): 'log' | 'block' | 'challenge' {
  return mode === 'simulate' ? 'log' : mode;
}

/** Applies the seed's OWASP table to the OWASP package's settings (undefined: the package at its defaults). */
export function mapOwaspPackage(settings: { sensitivity?: Sensitivity; action_mode?: ActionMode } | undefined): OwaspEquivalent {
  const sensitivity = settings?.sensitivity ?? PreviousWafDefaults.sensitivity;
  const actionMode = settings?.action_mode ?? PreviousWafDefaults.action_mode;
  const row: SensitivityRow = settings?.sensitivity === undefined ? 'default' : settings.sensitivity;
  const table = OwaspSensitivityTable[row === 'off' ? 'default' : row];
  return {
    row,
    sensitivity,
    actionMode,
    deployed: row !== 'off',
    paranoiaLevel: table.paranoiaLevel,
    scoreThreshold: table.scoreThreshold,
    action: mapActionMode(actionMode),
  };
}

/** The behaviour a vendor rule mode asks of the rule's successor; undefined for `default` (resolve it first). */
export function mapVendorRuleMode(mode: string): RuleBehaviour | undefined {
  switch (mode) {
    case 'default': return undefined;
    case 'disable': case 'off': return { enabled: false };
    case 'on': return { enabled: true };
    case 'simulate': return { action: 'log', enabled: true };
    // block, challenge, and any mode the previous WAF never had (kept visible rather than guessed).
    default: return { action: mode, enabled: true };
  }
}

/** The Managed Ruleset category named like a vendor group: `Cloudflare WordPress` -> `wordpress`. */
export function groupCategory(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const category = name.replace(/^cloudflare\s+/i, '').trim().toLowerCase().replace(/\s+/g, '-');
  return category === '' ? undefined : category;
}

/** What a vendor rule's mode implies for its successor. */
export function mapVendorRule(id: string, mode: string, catalog: PreviousWafCatalog): VendorRuleEquivalent {
  const effectiveMode = mode === 'default' ? catalog.defaultMode(id) : mode;
  const successor = Object.hasOwn(LegacyManagedRules, id) ? LegacyManagedRules[id] : undefined;
  const expected = effectiveMode === undefined ? undefined : mapVendorRuleMode(effectiveMode);
  return { legacyId: id, mode, effectiveMode, successor, expected };
}

/** Finds the OWASP package's settings among the manifest's packages. */
function owaspSettings(settings: ManifestPreviousWafSettings, catalog: PreviousWafCatalog): ManifestPreviousWafSettings['packages'][string] | undefined {
  for (const [id, pkg] of Object.entries(settings.packages)) {
    if (catalog.packageKind(id) === 'owasp') return pkg;
  }
  return undefined;
}

/** What a manifest's `previous_waf` implies for the new WAF, by the seed's mapping. */
export function mapPreviousWaf(settings: ManifestPreviousWafSettings, catalog: PreviousWafCatalog): MappingResult {
  const manual: ManualItem[] = [];
  const vendorGroups: VendorGroupEquivalent[] = [];
  const vendorRules: VendorRuleEquivalent[] = [];
  for (const [id, mode] of Object.entries(settings.groups)) {
    const kind = catalog.groupKind(id);
    const name = catalog.name(id);
    if (kind === 'vendor') vendorGroups.push({ groupId: id, mode, name, category: groupCategory(name) });
    else manual.push(kind === 'owasp'
      ? { kind: 'owasp-group', id, mode, name, advice: 'OWASP group overrides cannot migrate automatically: recreate it in the new OWASP ruleset (a category or rule override, or a skip rule)' }
      : { kind: 'unknown', id, mode, name, advice: 'not a group of the zone\'s previous WAF that zonewall knows: check it and recreate the setting by hand' });
  }
  for (const [id, mode] of Object.entries(settings.rules)) {
    const kind = catalog.ruleKind(id);
    const name = catalog.name(id);
    if (kind === 'vendor') vendorRules.push(mapVendorRule(id, mode, catalog));
    else manual.push(kind === 'owasp'
      ? { kind: 'owasp-rule', id, mode, name, advice: 'OWASP rule overrides cannot migrate automatically: recreate it as a rule override of the new OWASP ruleset (the 3.x rules have new ids)' }
      : { kind: 'unknown', id, mode, name, advice: 'not a rule of the zone\'s previous WAF that zonewall knows: check it and recreate the setting by hand' });
  }
  return { owasp: mapOwaspPackage(owaspSettings(settings, catalog)), vendorGroups, vendorRules, manual };
}

/**
 * Classifies ids from the live previous WAF when it can be read (packages by `detection_mode`,
 * groups and rules by `package_id`), else by the known package ids and the CRS 2.x id pattern:
 * OWASP 2.x rule ids are six digits starting with 9 (e.g. `990012`, `950011`, `981176`).
 */
export function catalogFromLive(live: LivePreviousWaf | null | undefined): PreviousWafCatalog {
  const packageKinds = new Map<string, PackageKind>([
    [PreviousWafPackageIds.owasp, 'owasp'],
    [PreviousWafPackageIds.cloudflare, 'vendor'],
  ]);
  const groups = new Map<string, string>();
  const rules = new Map<string, string>();
  const names = new Map<string, string>();
  const defaults = new Map<string, string>();
  for (const p of live?.packages ?? []) packageKinds.set(p.id, p.detection_mode === 'anomaly' ? 'owasp' : 'vendor');
  for (const g of live?.groups ?? []) { groups.set(g.id, g.package_id); names.set(g.id, g.name); }
  for (const r of live?.rules ?? []) {
    rules.set(r.id, r.package_id);
    if (r.description !== undefined) names.set(r.id, r.description);
    if (r.default_mode !== undefined) defaults.set(r.id, r.default_mode);
  }
  const kindOf = (packageId: string | undefined): PackageKind =>
    packageId === undefined ? 'unknown' : packageKinds.get(packageId) ?? 'unknown';
  return {
    packageKind: (id) => packageKinds.get(id) ?? 'unknown',
    groupKind: (id) => kindOf(groups.get(id)),
    ruleKind: (id) => {
      const known = rules.get(id);
      if (known !== undefined) return kindOf(known);
      if (Object.hasOwn(LegacyManagedRules, id)) return 'vendor';
      return /^9\d{5}$/.test(id) ? 'owasp' : 'unknown';
    },
    name: (id) => names.get(id),
    defaultMode: (id) => defaults.get(id),
  };
}

/** The mode a live rule of the previous WAF has when nobody changed it. */
function defaultRuleMode(r: LiveWafRule): string {
  return r.allowed_modes.includes('default') ? 'default' : 'on';
}

/**
 * The manifest's previous-WAF settings over the live zone's: the live anomaly packages' settings,
 * groups turned off and rules not at their default mode, with the manifest's own values winning.
 * Objects a manifest leaves out are left alone, so the live value is the one the migration carries
 * (and, for OWASP groups and rules, the one that must be recreated by hand). Read at every step, so
 * the report keeps those rows after `migrate --write` removed `previous_waf` from the manifest,
 * until the zone runs the new WAF only.
 */
export function withLiveSettings(settings: ManifestPreviousWafSettings | undefined, live: LivePreviousWaf | null | undefined): ManifestPreviousWafSettings {
  const packages: ManifestPreviousWafSettings['packages'] = {};
  for (const p of live?.packages ?? []) {
    if (p.detection_mode !== 'anomaly') continue;
    packages[p.id] = {
      ...(p.sensitivity !== undefined ? { sensitivity: p.sensitivity } : {}),
      ...(p.action_mode !== undefined ? { action_mode: p.action_mode } : {}),
    };
  }
  for (const [id, pkg] of Object.entries(settings?.packages ?? {})) {
    packages[id] = {
      ...packages[id],
      ...(pkg.sensitivity !== undefined ? { sensitivity: pkg.sensitivity } : {}),
      ...(pkg.action_mode !== undefined ? { action_mode: pkg.action_mode } : {}),
    };
  }
  const groups: ManifestPreviousWafSettings['groups'] = {};
  for (const g of live?.groups ?? []) if (g.mode === 'off') groups[g.id] = 'off';
  const rules: ManifestPreviousWafSettings['rules'] = {};
  for (const r of live?.rules ?? []) if (r.mode !== defaultRuleMode(r)) rules[r.id] = r.mode;
  return { packages, groups: { ...groups, ...settings?.groups }, rules: { ...rules, ...settings?.rules } };
}
