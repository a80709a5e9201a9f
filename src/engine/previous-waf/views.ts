/**
 * API views of the previous WAF: packages, groups and rules as the real API shows them (reference
 * §5), the catalog's data merged with the zone's settings, and the zone setting `waf`.
 */
import { allowedModes, type LegacyGroup, type LegacyPackage, type LegacyRule } from '../catalog/index.js';
import { actionModeOf, groupModeOf, ruleModeOf, ruleModified, sensitivityOf, type PreviousWafSettings } from './model.js';

/** A package. Anomaly packages add `sensitivity` and `action_mode`. */
export function packageView(pkg: LegacyPackage, s: PreviousWafSettings, zoneId: string): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: pkg.id,
    name: pkg.name,
    description: pkg.description,
    detection_mode: pkg.detection_mode,
    zone_id: zoneId,
    status: 'active',
  };
  if (pkg.detection_mode === 'anomaly') {
    view.sensitivity = sensitivityOf(s, pkg);
    view.action_mode = actionModeOf(s, pkg);
  }
  return view;
}

/** A group with its rule counts. */
export function groupView(pkg: LegacyPackage, group: LegacyGroup, s: PreviousWafSettings): Record<string, unknown> {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    mode: groupModeOf(s, pkg, group),
    rules_count: group.rules.length,
    modified_rules_count: group.rules.filter((r) => ruleModified(s, pkg, r)).length,
    package_id: pkg.id,
    allowed_modes: ['on', 'off'],
  };
}

/** A rule. Traditional deny rules add `default_mode`. */
export function wafRuleView(pkg: LegacyPackage, group: LegacyGroup, rule: LegacyRule, s: PreviousWafSettings): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: rule.id,
    description: rule.description,
    priority: rule.priority,
    group: { id: group.id, name: group.name },
    package_id: pkg.id,
    mode: ruleModeOf(s, pkg, rule),
    allowed_modes: allowedModes(pkg, rule),
  };
  if (rule.kind === 'deny' && rule.default_mode !== undefined) view.default_mode = rule.default_mode;
  return view;
}

/** The zone setting `waf` as the zone settings API shows it. */
export function wafSettingView(value: 'on' | 'off', editable: boolean, modifiedOn: string | null): Record<string, unknown> {
  return { id: 'waf', value, editable, modified_on: modifiedOn };
}
