/**
 * The previous WAF's per-zone settings as plain data, and the rules that give every package, group
 * and rule its effective value. A zone stores only what was changed from the defaults (so a reset to
 * defaults deletes rows); everything else comes from the catalog:
 *
 * - package (anomaly only): sensitivity `high`, action mode `challenge`; `null` = never set, which
 *   the migration maps with the seed's "Default" row;
 * - group: `on`;
 * - rule: `default` where allowed (traditional deny rules), else `on`.
 *
 * `enabled` is the zone setting `waf` (on/off), the previous WAF's global switch.
 */
import {
  PreviousWafActionModes as ActionModes, PreviousWafDefaults, PreviousWafSensitivities as Sensitivities,
  type PreviousWafActionMode as ActionMode, type PreviousWafSensitivity as Sensitivity,
} from '../../api/index.js';
import { allowedModes, defaultRuleMode, type LegacyGroup, type LegacyPackage, type LegacyRule } from '../catalog/index.js';

/** Sensitivities and action modes of an anomaly package (`src/api`'s). */
export { ActionModes, Sensitivities, type ActionMode, type Sensitivity };
/** Package defaults (real: TF resets to these; `src/api`'s `PreviousWafDefaults`). */
export const PackageDefaults = { sensitivity: PreviousWafDefaults.sensitivity, action_mode: PreviousWafDefaults.action_mode } as const satisfies { sensitivity: Sensitivity; action_mode: ActionMode };

/** A URI-based WAF override as stored and shown. */
export interface WafOverride {
  id: string;
  description: string | null;
  urls: string[];
  priority: number;
  paused: boolean;
  groups: Record<string, string>;
  rules: Record<string, string>;
  rewrite_action: Record<string, string>;
}

/** What a zone changed in its previous WAF. */
export interface PreviousWafSettings {
  /** The zone setting `waf`. */
  enabled: boolean;
  /** Anomaly packages' stored attributes, by package id (`null` = never set). */
  packages: Map<string, { sensitivity: Sensitivity | null; action_mode: ActionMode | null }>;
  /** Group modes that were set, by `<package_id>/<group_id>`. */
  groupModes: Map<string, 'on' | 'off'>;
  /** Rule modes that were set, by `<package_id>/<rule_id>`. */
  ruleModes: Map<string, string>;
  overrides: WafOverride[];
}

/** Settings of a zone that never changed anything. */
export function defaultSettings(): PreviousWafSettings {
  return { enabled: true, packages: new Map(), groupModes: new Map(), ruleModes: new Map(), overrides: [] };
}

/** The stored sensitivity of a package (`null` = never set). */
export function storedSensitivity(s: PreviousWafSettings, pkg: LegacyPackage): Sensitivity | null {
  return s.packages.get(pkg.id)?.sensitivity ?? null;
}

/** The effective sensitivity of an anomaly package. */
export function sensitivityOf(s: PreviousWafSettings, pkg: LegacyPackage): Sensitivity {
  return storedSensitivity(s, pkg) ?? PackageDefaults.sensitivity;
}

/** The stored action mode of a package (`null` = never set). */
export function storedActionMode(s: PreviousWafSettings, pkg: LegacyPackage): ActionMode | null {
  return s.packages.get(pkg.id)?.action_mode ?? null;
}

/** The effective action mode of an anomaly package. */
export function actionModeOf(s: PreviousWafSettings, pkg: LegacyPackage): ActionMode {
  return storedActionMode(s, pkg) ?? PackageDefaults.action_mode;
}

/** The effective mode of a group. */
export function groupModeOf(s: PreviousWafSettings, pkg: LegacyPackage, group: LegacyGroup): 'on' | 'off' {
  return s.groupModes.get(`${pkg.id}/${group.id}`) ?? 'on';
}

/** The effective mode of a rule. */
export function ruleModeOf(s: PreviousWafSettings, pkg: LegacyPackage, rule: LegacyRule): string {
  return s.ruleModes.get(`${pkg.id}/${rule.id}`) ?? defaultRuleMode(pkg, rule);
}

/** Whether a rule's mode differs from its default (the groups' `modified_rules_count`). */
export function ruleModified(s: PreviousWafSettings, pkg: LegacyPackage, rule: LegacyRule): boolean {
  return ruleModeOf(s, pkg, rule) !== defaultRuleMode(pkg, rule);
}

/** The allowed modes of a rule (re-exported for the handlers and tests). */
export { allowedModes };
