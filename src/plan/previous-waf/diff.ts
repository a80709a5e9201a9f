/**
 * The previous WAF: packages (sensitivity, action mode), groups (on/off) and rules (mode). The API
 * has no create or delete for them, only PATCH of existing objects, so the plan patches each
 * listed object whose settings differ, one request each. Ownership (README, "Identity and
 * ownership"): there is no state file and these objects have no ref, so a `previous_waf` section
 * owns the zone's whole previous WAF: an object it does not list is planned back to its default
 * (`reset-to-default`, as Terraform's destroy of a WAF package, group or rule resets it), so an
 * entry removed from the manifest is a visible change; without the section nothing of the previous
 * WAF is managed and nothing is reset. Once a zone has migrated
 * the previous WAF's APIs no longer answer: `previous_waf` is then an error finding (apply refuses,
 * plan exits 1) that points at `zonewall migrate PATH --write`, not a silently ignored section.
 */
import type { DesiredPreviousWaf, DesiredZone } from '../../manifest/index.js';
import { changedAttributes, noOpChange, type Attributes, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LivePreviousWaf } from './live.js';
import type { LiveZone } from '../live.js';
import { PreviousWafDefaults } from '../../api/index.js';

/** What the previous-WAF diff found. */
export interface PreviousWafDiff {
  changes: Change[];
  findings: Finding[];
}

function diffPackages(want: DesiredPreviousWaf, live: LivePreviousWaf, out: PreviousWafDiff): void {
  for (const [id, settings] of Object.entries(want.packages)) {
    const pkg = live.packages.find((p) => p.id === id);
    if (pkg === undefined) {
      out.findings.push(finding('unknown-previous-waf-object', `previous WAF package ${id} does not exist in the zone (packages: ${live.packages.map((p) => `${p.id} ${p.name}`).join(', ')})`,
        { kind: 'waf_package', ref: id, location: want.keyLocations?.packages[id] ?? want.location }));
      continue;
    }
    if (pkg.detection_mode !== 'anomaly') {
      out.findings.push(finding('invalid-previous-waf-setting', `previous WAF package ${id} (${pkg.name}) is a traditional package: only anomaly packages have a sensitivity and an action mode`,
        { kind: 'waf_package', ref: id, location: want.keyLocations?.packages[id] ?? want.location }));
      continue;
    }
    const before: Attributes = {};
    const after: Attributes = {};
    const body: { sensitivity?: string; action_mode?: string } = {};
    if (settings.sensitivity !== undefined) { before.sensitivity = pkg.sensitivity ?? null; after.sensitivity = settings.sensitivity; }
    if (settings.action_mode !== undefined) { before.action_mode = pkg.action_mode ?? null; after.action_mode = settings.action_mode; }
    const changed = changedAttributes(before, after);
    for (const n of changed) (body as Record<string, unknown>)[n] = after[n];
    out.changes.push(patchChange('waf_package', id, before, after, changed,
      changed.length > 0 ? [{ op: 'waf_package.patch', packageId: id, body }] : []));
  }
}

function diffGroups(want: DesiredPreviousWaf, live: LivePreviousWaf, out: PreviousWafDiff): void {
  for (const [id, mode] of Object.entries(want.groups)) {
    const group = live.groups.find((g) => g.id === id);
    if (group === undefined) {
      out.findings.push(finding('unknown-previous-waf-object', `previous WAF group ${id} does not exist in the zone`, { kind: 'waf_group', ref: id, location: want.keyLocations?.groups[id] ?? want.location }));
      continue;
    }
    const before = { mode: group.mode };
    const after = { mode };
    const changed = changedAttributes(before, after);
    out.changes.push(patchChange('waf_group', id, before, after, changed,
      changed.length > 0 ? [{ op: 'waf_group.patch', packageId: group.package_id, groupId: id, mode }] : []));
  }
}

function diffRules(want: DesiredPreviousWaf, live: LivePreviousWaf, out: PreviousWafDiff): void {
  for (const [id, mode] of Object.entries(want.rules)) {
    const rule = live.rules.find((r) => r.id === id);
    if (rule === undefined) {
      out.findings.push(finding('unknown-previous-waf-object', `previous WAF rule ${id} does not exist in the zone`, { kind: 'waf_rule', ref: id, location: want.keyLocations?.rules[id] ?? want.location }));
      continue;
    }
    if (!rule.allowed_modes.includes(mode)) {
      out.findings.push(finding('invalid-previous-waf-setting', `previous WAF rule ${id} cannot be set to "${mode}"; allowed modes: ${rule.allowed_modes.join(', ')}`,
        { kind: 'waf_rule', ref: id, location: want.keyLocations?.rules[id] ?? want.location }));
      continue;
    }
    const before: Attributes = { mode: rule.mode, ...(rule.default_mode !== undefined ? { default_mode: rule.default_mode } : {}) };
    const after: Attributes = { mode, ...(rule.default_mode !== undefined ? { default_mode: rule.default_mode } : {}) };
    const changed = changedAttributes(before, after);
    out.changes.push(patchChange('waf_rule', id, before, after, changed,
      changed.length > 0 ? [{ op: 'waf_rule.patch', packageId: rule.package_id, ruleId: id, mode }] : []));
  }
}

function patchChange(kind: 'waf_package' | 'waf_group' | 'waf_rule', id: string, before: Attributes, after: Attributes, changed: string[], writes: Change['writes']): Change {
  return changed.length === 0
    ? noOpChange(kind, id, id)
    : { kind, action: 'update', reason: 'changed', ref: id, id, before, after, changed, writes };
}

/**
 * Why `previous_waf` cannot be applied to a zone whose previous WAF does not answer. After the
 * migration (`new only`) the manifest is stale, and `zonewall migrate` rewrites it; in validation
 * mode (`both`) the previous WAF still runs and answers, so this is not reached then.
 */
function unavailable(desired: DesiredZone, live: LiveZone, flags: string): string {
  const state = live.migration?.waf_state;
  const rewrite = `run \`zonewall migrate ${desired.file}${flags} --write\` to rewrite the manifest (it replaces \`previous_waf\` by \`managed_rules\` from what the zone runs)`;
  if (state === 'new_only') {
    return `the zone has migrated to the ruleset-based WAF (state \`new only\`): the previous WAF's APIs no longer answer, so \`previous_waf\` cannot be applied; ${rewrite}`;
  }
  if (state === undefined) {
    return `the previous WAF's APIs do not answer for this zone, so \`previous_waf\` cannot be applied: the zone has most likely migrated to the ruleset-based WAF; if so, ${rewrite}; else remove \`previous_waf\``;
  }
  const tier = live.zone.plan !== undefined ? ` (the zone is on the ${live.zone.plan} plan; the previous WAF needs Pro or higher)` : '';
  return `the previous WAF's APIs do not answer for this zone${tier}, so \`previous_waf\` cannot be applied; remove it, or manage the zone's WAF with \`managed_rules\``;
}

/** Changes of the previous WAF; an error when the zone has none to change (e.g. it has migrated). */
export function diffPreviousWaf(desired: DesiredZone, live: LiveZone, flags = ''): PreviousWafDiff {
  const out: PreviousWafDiff = { changes: [], findings: [] };
  const want = desired.previousWaf;
  if (want === undefined) return out;
  if (live.previousWaf === null) {
    out.findings.push(finding('previous-waf-unavailable', unavailable(desired, live, flags), { location: want.location }));
    return out;
  }
  diffPackages(want, live.previousWaf, out);
  diffGroups(want, live.previousWaf, out);
  diffRules(want, live.previousWaf, out);
  out.changes.push(...resetUnlisted(want, live.previousWaf));
  return out;
}

/** A rule's default mode: `default` where allowed, else `on`. */
function defaultRuleMode(allowed: readonly string[]): string {
  return allowed.includes(PreviousWafDefaults.rule_mode) ? PreviousWafDefaults.rule_mode : 'on';
}

function reset(kind: 'waf_package' | 'waf_group' | 'waf_rule', id: string, before: Attributes, after: Attributes, writes: Change['writes']): Change {
  return { kind, action: 'update', reason: 'reset-to-default', ref: id, id, before, after, changed: changedAttributes(before, after), writes,
    note: 'not listed in previous_waf, which owns the zone\'s previous WAF: back to the default' };
}

/** Live objects the section does not list and that are not at their defaults: reset. */
function resetUnlisted(want: DesiredPreviousWaf, live: LivePreviousWaf): Change[] {
  const out: Change[] = [];
  for (const p of live.packages) {
    if (p.detection_mode !== 'anomaly' || Object.hasOwn(want.packages, p.id)) continue;
    const body: { sensitivity?: string; action_mode?: string } = {};
    if (p.sensitivity !== undefined && p.sensitivity !== PreviousWafDefaults.sensitivity) body.sensitivity = PreviousWafDefaults.sensitivity;
    if (p.action_mode !== undefined && p.action_mode !== PreviousWafDefaults.action_mode) body.action_mode = PreviousWafDefaults.action_mode;
    if (Object.keys(body).length === 0) continue;
    const before: Attributes = {};
    for (const k of Object.keys(body)) before[k] = (p as unknown as Record<string, string>)[k]!;
    out.push(reset('waf_package', p.id, before, { ...body }, [{ op: 'waf_package.patch', packageId: p.id, body }]));
  }
  for (const g of live.groups) {
    if (g.mode === PreviousWafDefaults.group_mode || Object.hasOwn(want.groups, g.id)) continue;
    out.push(reset('waf_group', g.id, { mode: g.mode }, { mode: PreviousWafDefaults.group_mode }, [{ op: 'waf_group.patch', packageId: g.package_id, groupId: g.id, mode: PreviousWafDefaults.group_mode }]));
  }
  for (const r of live.rules) {
    const mode = defaultRuleMode(r.allowed_modes);
    if (r.mode === mode || Object.hasOwn(want.rules, r.id)) continue;
    out.push(reset('waf_rule', r.id, { mode: r.mode }, { mode }, [{ op: 'waf_rule.patch', packageId: r.package_id, ruleId: r.id, mode }]));
  }
  return out;
}
