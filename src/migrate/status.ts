/**
 * `zonewall migrate status`: both WAFs' state and the migration mode of one zone, as data and as
 * text. The previous WAF is summarised by its OWASP package and the number of groups and rules set
 * away from their defaults; the new WAF by the managed rulesets its entry point runs. The status
 * ends with the next step of the seed's sequence.
 */
import { describeSkip, isExecuteRule } from '../plan/index.js';
import type { EntrypointRule, LiveWafOverride, LiveZoneInfo, WafState } from '../plan/index.js';
import type { Provider } from '../providers/index.js';
import { ManagedRulesetIds } from './constants.js';
import { rulesetAlias } from './managed-rules.js';
import { describeThreshold, effectiveOwasp } from './owasp.js';
import { wafStateOf } from './sequence.js';

/** The status of a zone's migration; its fields are snake_case, as in every `--json` document. */
export interface MigrationStatusReport {
  zone: LiveZoneInfo;
  state: WafState;
  /** The service's `migration_state` (`start` at the beginning). */
  migration_state: string;
  old_waf: 'enabled' | 'disabled';
  new_waf: 'enabled' | 'disabled';
  /** null once the previous WAF can no longer be read (after the migration). */
  previous: {
    owasp?: { sensitivity?: string; action_mode?: string };
    groups_off: number;
    rules_set: number;
    overrides: LiveWafOverride[];
  } | null;
  /** The entry point's rules, one line each; empty when there is none. */
  rulesets: string[];
  /** What to do next. */
  next: string;
}

/** Names the seed's states for people. */
export const WafStateLabels: Record<WafState, string> = {
  previous_only: 'previous WAF only',
  both: 'both WAFs (validation mode)',
  new_only: 'new WAF only (migration finished)',
};

/** One line about an entry point rule. */
function describeRule(r: EntrypointRule): string {
  const state = r.enabled ? 'on' : 'disabled';
  const where = r.expression === 'true' ? '' : ` when ${r.expression}`;
  // Skip rules (from firewall rules that bypassed the WAF) share the phase with the executes.
  if (!isExecuteRule(r)) {
    const skips = r.action === 'skip' ? ` skipping ${describeSkip(r.action_parameters)}` : '';
    return `${String(r.action)} rule${skips}, ${state}${where}${r.description ? ` (${r.description})` : ''}`;
  }
  const id = r.action_parameters?.id ?? '';
  if (id === ManagedRulesetIds.owasp) {
    const o = effectiveOwasp(r.action_parameters?.overrides);
    return `owasp, ${state}${where}: PL${o.paranoiaLevel ?? '?'}, score threshold ${describeThreshold(o.scoreThreshold)}, action ${o.action}`;
  }
  const n = r.action_parameters?.overrides?.rules?.length ?? 0;
  return `${rulesetAlias(id)}, ${state}${where}${n > 0 ? `: ${n} rule override${n === 1 ? '' : 's'}` : ''}`;
}

/** The next step of the sequence for a state. */
function nextStep(state: WafState, zone: LiveZoneInfo, overrides: number): string {
  if (state === 'new_only') return 'nothing: manage the new WAF with managed_rules (zonewall plan / apply)';
  // Free zones never had the previous WAF (seed 002 starts from Pro): there is nothing to migrate.
  if (zone.plan === 'free') return 'nothing to migrate: a Free zone has no previous WAF; deploy managed rulesets with managed_rules (zonewall plan / apply)';
  if (state === 'both') return 'review the security events, then finish with: zonewall migrate MANIFEST --mode pending --force';
  if (overrides > 0) return `delete the URI-based overrides first: zonewall migrate delete-overrides --zone ${zone.name} --all --force`;
  return zone.plan === 'enterprise'
    ? 'zonewall migrate MANIFEST (dry run), then --mode validation'
    : 'zonewall migrate MANIFEST (dry run), then --mode pending --force';
}

/** Reads the status of a zone's migration. */
export async function readMigrationStatus(provider: Provider, zoneName: string): Promise<MigrationStatusReport> {
  const { zone } = await provider.resolveZone(zoneName);
  const live = await provider.readZone(zone.id);
  const status = live.migration ?? await provider.migrationStatus(zone.id);
  const state = wafStateOf({ ...live, migration: status });
  const prev = live.previousWaf;
  const owasp = prev?.packages.find((p) => p.detection_mode === 'anomaly');
  const previous = prev === null ? null : {
    ...(owasp !== undefined ? { owasp: { sensitivity: owasp.sensitivity, action_mode: owasp.action_mode } } : {}),
    groups_off: prev.groups.filter((g) => g.mode === 'off').length,
    rules_set: prev.rules.filter((r) => r.mode !== 'default' && r.default_mode !== undefined).length,
    overrides: prev.overrides,
  };
  return {
    zone, state, migration_state: status.migration_state, old_waf: status.old_waf_status, new_waf: status.new_waf_status,
    previous, rulesets: (live.entrypoint?.rules ?? []).map(describeRule),
    next: nextStep(state, zone, prev?.overrides.length ?? 0),
  };
}

/** The status as text. */
export function renderMigrationStatus(s: MigrationStatusReport): string {
  const lines = [
    `zone ${s.zone.name} (${s.zone.id}${s.zone.plan !== undefined ? `, ${s.zone.plan}` : ''})`,
    `  migration:    ${s.zone.plan === 'free' && s.state === 'previous_only' ? 'none (Free plan: no previous WAF)' : WafStateLabels[s.state]}; migration_state ${s.migration_state}`,
    `  previous WAF: ${s.old_waf}`,
  ];
  if (s.previous !== null) {
    const o = s.previous.owasp;
    if (o !== undefined) lines.push(`    OWASP package: sensitivity ${o.sensitivity ?? '?'}, action_mode ${o.action_mode ?? '?'}`);
    lines.push(`    groups off: ${s.previous.groups_off}; traditional rules set away from default: ${s.previous.rules_set}`);
    lines.push(`    URI-based overrides: ${s.previous.overrides.length}${s.previous.overrides.length > 0 ? ` (${s.previous.overrides.map((x) => x.id).join(', ')}): they block the migration` : ''}`);
  }
  lines.push(`  new WAF:      ${s.new_waf}`);
  for (const r of s.rulesets) lines.push(`    ${r}`);
  if (s.rulesets.length === 0) lines.push('    no http_request_firewall_managed entry point');
  lines.push(`  next: ${s.next}`);
  return `${lines.join('\n')}\n`;
}
