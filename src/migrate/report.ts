/**
 * The equivalence report: what the manifest's `previous_waf` implies by the seed's mapping, set
 * against the new configuration the service proposes, row by row. Verdicts:
 *
 * | verdict           | meaning |
 * |-------------------|---------|
 * | `maps`            | the proposal holds the equivalent, same meaning |
 * | `changes-meaning` | the proposal holds the seed's equivalent, but it does not behave the same |
 * | `manual`          | cannot migrate automatically: recreate it by hand (OWASP group/rule overrides) |
 * | `differs`         | the proposal differs from what the manifest implies (often: the manifest is not applied) |
 * | `carried`         | the proposal carries a setting zonewall cannot pair with a manifest line; review it |
 *
 * Pure data; `report-text.ts` renders it.
 */
import { describeSkip, isExecuteRule } from '../plan/index.js';
import type { EntrypointBody, ExecuteEntrypointRule, LivePageRule, ManagedOverrides } from '../plan/index.js';
import { LegacyOwaspThresholds, ManagedRulesetIds, OwaspScoreRuleId, ParanoiaCategories } from './constants.js';
import type { ManualItem, MappingResult, OwaspEquivalent, RuleBehaviour, VendorGroupEquivalent, VendorRuleEquivalent } from './mapping.js';
import { describeThreshold, effectiveOwasp } from './owasp.js';
import { pageRuleRows } from './report-page-rules.js';
import { skipRuleNote } from './report-notes.js';
import type { EquivalenceReport, EquivalenceRow, Verdict } from './report-model.js';

export type { Blocker, EquivalenceReport, EquivalenceRow, Verdict } from './report-model.js';

/** The note of a row whose proposal differs from the manifest's implication. */
const NotApplied = 'the proposal differs from the seed\'s mapping of the manifest: is the manifest applied? (zonewall plan) The migration uses the proposal';

/** Overrides not yet paired with a manifest line, so the leftovers can be shown as carried. */
interface Accounting { rules: Set<string>; categories: Set<string> }

/** The rule of a body that executes a ruleset. */
function executing(body: EntrypointBody, rulesetId: string): ExecuteEntrypointRule | undefined {
  return body.rules.filter(isExecuteRule).find((r) => r.action_parameters?.id === rulesetId);
}

/** The rows about the OWASP package. */
function owaspRows(expected: OwaspEquivalent, proposal: EntrypointBody): EquivalenceRow[] {
  const rule = executing(proposal, ManagedRulesetIds.owasp);
  const previous = `sensitivity ${expected.sensitivity}${expected.row === 'default' ? ' (default)' : ''}`;
  if (!expected.deployed) {
    const off = rule === undefined || !rule.enabled;
    return [{
      verdict: off ? 'maps' : 'differs', subject: 'OWASP package', previous, expected: 'OWASP ruleset not running',
      proposed: rule === undefined ? 'OWASP ruleset not deployed' : off ? 'OWASP ruleset deployed disabled' : 'OWASP ruleset running',
      note: off ? undefined : NotApplied,
    }];
  }
  const wanted = `PL${expected.paranoiaLevel}, score threshold ${describeThreshold(expected.scoreThreshold)}`;
  if (rule === undefined || !rule.enabled) {
    return [{
      verdict: 'differs', subject: 'OWASP package', previous, expected: wanted,
      proposed: rule === undefined ? 'OWASP ruleset not deployed' : 'OWASP ruleset deployed disabled', note: NotApplied,
    }];
  }
  const live = effectiveOwasp(rule.action_parameters.overrides);
  const proposed = `PL${live.paranoiaLevel ?? '?'}, score threshold ${describeThreshold(live.scoreThreshold)}`;
  const same = live.paranoiaLevel === expected.paranoiaLevel && live.scoreThreshold === expected.scoreThreshold;
  const legacy = LegacyOwaspThresholds[expected.sensitivity as keyof typeof LegacyOwaspThresholds];
  return [{
    verdict: same ? 'changes-meaning' : 'differs', subject: 'OWASP sensitivity', previous, expected: wanted, proposed,
    note: same
      ? `the previous OWASP (CRS 2.x) acted at an anomaly score of ${legacy}; the new one (CRS 3.x) acts at ${expected.scoreThreshold} over the rules up to PL${expected.paranoiaLevel}: scores are not comparable, review security events after the change`
      : NotApplied,
  }, {
    verdict: live.action === expected.action ? 'maps' : 'differs',
    subject: 'OWASP action', previous: `action_mode ${expected.actionMode}`,
    expected: `949110 action ${expected.action}`, proposed: `949110 action ${live.action}`,
    note: live.action !== expected.action ? NotApplied
      : expected.actionMode === 'simulate' ? 'simulate is called log in the new WAF: matching requests are logged, not stopped' : undefined,
  }];
}

/** The row about the vendor package as a whole: the Managed Ruleset deployed on all traffic. */
function managedRow(proposal: EntrypointBody): EquivalenceRow {
  const rule = executing(proposal, ManagedRulesetIds.managed);
  const running = rule !== undefined && rule.enabled;
  return {
    verdict: running ? 'maps' : 'differs', subject: 'CloudFlare package', previous: 'vendor managed rules',
    expected: 'Managed Ruleset on all traffic',
    proposed: rule === undefined ? 'Managed Ruleset not deployed' : !rule.enabled ? 'Managed Ruleset deployed disabled'
      : rule.expression === 'true' ? 'Managed Ruleset on all traffic' : `Managed Ruleset when ${rule.expression}`,
    note: running ? undefined : 'the service does not run the Managed Ruleset: the previous WAF is probably switched off on the zone; enable it in managed_rules if it should run',
  };
}

/** `action log`, `disabled`, `action block, enabled`. */
function describeBehaviour(b: { action?: string; enabled?: boolean } | undefined): string {
  if (b === undefined) return 'unknown';
  const parts: string[] = [];
  if (b.enabled !== false && b.action !== undefined) parts.push(`action ${b.action}`);
  if (b.enabled !== undefined) parts.push(b.enabled ? 'enabled' : 'disabled');
  return parts.join(', ');
}

/** The rows about vendor groups: a group off maps to its category disabled. */
function vendorGroupRows(groups: VendorGroupEquivalent[], managed: ManagedOverrides | undefined, acc: Accounting): EquivalenceRow[] {
  return groups.map((g) => {
    const subject = `vendor group ${g.groupId}${g.name !== undefined ? ` (${g.name})` : ''}`;
    const found = g.category === undefined ? undefined : (managed?.categories ?? []).find((c) => c.category === g.category);
    if (found !== undefined) acc.categories.add(found.category);
    const disabled = found?.enabled === false;
    if (g.mode === 'on') {
      return { verdict: disabled ? 'differs' : 'maps', subject, previous: 'mode on', expected: 'category runs', proposed: disabled ? `category ${g.category} disabled` : 'category runs', note: disabled ? NotApplied : undefined };
    }
    if (disabled) return { verdict: 'maps', subject, previous: 'mode off', expected: `category ${g.category} disabled`, proposed: `category ${g.category} disabled` };
    return {
      verdict: 'carried', subject, previous: 'mode off', expected: g.category !== undefined ? `category ${g.category} disabled` : 'its rules disabled',
      proposed: g.category !== undefined && found !== undefined ? describeBehaviour(found) : 'no category override',
      note: 'zonewall cannot pair this group with a category of the proposal: the service may disable its rules one by one (see the carried rows); check them',
    };
  });
}

/** The rows about vendor rules whose successor is known. */
function vendorRuleRows(rules: VendorRuleEquivalent[], managed: ManagedOverrides | undefined, acc: Accounting): EquivalenceRow[] {
  return rules.map((rule): EquivalenceRow => {
    const subject = `vendor rule ${rule.legacyId}`;
    const previous = `mode ${rule.mode}${rule.mode === 'default' && rule.effectiveMode !== undefined ? ` (${rule.effectiveMode})` : ''}`;
    if (rule.successor === undefined || rule.expected === undefined) {
      return {
        verdict: 'carried', subject, previous, expected: rule.expected !== undefined ? describeBehaviour(rule.expected) : 'its default behaviour', proposed: '-',
        note: rule.successor === undefined
          ? 'zonewall does not know which Managed Ruleset rule replaces it: the service pairs them; check the carried rows'
          : 'its default mode is unknown (the previous WAF cannot be read): check the carried rows',
      };
    }
    const { id } = rule.successor;
    acc.rules.add(id);
    const override = (managed?.rules ?? []).find((o) => o.id === id);
    const actual: RuleBehaviour = { action: override?.action ?? rule.successor.action, enabled: override?.enabled ?? rule.successor.enabled };
    const want = rule.expected;
    const same = want.enabled === actual.enabled && (!want.enabled || want.action === undefined || want.action === actual.action);
    return {
      verdict: same ? 'maps' : 'differs', subject, previous,
      expected: `rule ${id}: ${describeBehaviour(want)}`, proposed: `rule ${id}: ${describeBehaviour(actual)}`,
      note: !same ? NotApplied : rule.effectiveMode === 'simulate' ? 'simulate is called log in the new WAF' : undefined,
    };
  });
}

/** One row for a setting that must be recreated by hand. */
function manualRow(item: ManualItem): EquivalenceRow {
  const label = { 'owasp-group': 'OWASP group', 'owasp-rule': 'OWASP rule', unknown: 'previous WAF item' }[item.kind];
  return {
    verdict: 'manual', subject: `${label} ${item.id}${item.name !== undefined ? ` (${item.name})` : ''}`,
    previous: `mode ${item.mode}`, expected: 'recreate by hand', proposed: '-', note: item.advice,
  };
}

/** Rows for the proposal's rules other than the two deployments, and its overrides nobody accounted for. */
function proposalRows(proposal: EntrypointBody, acc: Accounting, claimed: ReadonlySet<number>, ownManagedRules: boolean): EquivalenceRow[] {
  const rows: EquivalenceRow[] = [];
  for (const [index, rule] of proposal.rules.entries()) {
    if (claimed.has(index)) continue;
    const id = isExecuteRule(rule) ? rule.action_parameters?.id : undefined;
    if (id === ManagedRulesetIds.managed || id === ManagedRulesetIds.owasp) continue;
    rows.push(rule.action === 'skip' ? {
      verdict: 'maps', subject: rule.description || 'firewall rule bypassing the WAF', previous: 'firewall rule: bypass waf',
      expected: 'skip rule in the managed phase', proposed: `skip ${describeSkip(rule.action_parameters)}${rule.enabled ? '' : ' (disabled)'} when ${rule.expression}`,
      note: skipRuleNote(ownManagedRules),
    } : {
      verdict: 'carried', subject: `${String(rule.action)} ${id ?? ''}`.trim(), previous: '-', expected: '-',
      proposed: `${rule.enabled ? 'on' : 'disabled'} when ${rule.expression}`, note: 'not implied by previous_waf; it is kept',
    });
  }
  for (const [rulesetId, label] of [[ManagedRulesetIds.managed, 'Managed Ruleset'], [ManagedRulesetIds.owasp, 'OWASP ruleset']] as const) {
    const overrides = executing(proposal, rulesetId)?.action_parameters.overrides;
    const owasp = rulesetId === ManagedRulesetIds.owasp;
    for (const c of overrides?.categories ?? []) {
      if ((!owasp && acc.categories.has(c.category)) || (owasp && (ParanoiaCategories as readonly string[]).includes(c.category))) continue;
      rows.push({ verdict: 'carried', subject: `${label} category ${c.category}`, previous: '-', expected: '-', proposed: describeBehaviour(c), note: 'set by the service for a previous-WAF setting or default the manifest does not state; review it' });
    }
    for (const r of overrides?.rules ?? []) {
      if ((!owasp && acc.rules.has(r.id)) || (owasp && r.id === OwaspScoreRuleId)) continue;
      rows.push({ verdict: 'carried', subject: `${label} rule ${r.id}`, previous: '-', expected: '-', proposed: describeBehaviour(r), note: 'set by the service for a previous-WAF setting or default the manifest does not state; review it' });
    }
  }
  return rows;
}

/** How the manifest is rewritten, which the report's notes describe. */
export interface ReportOptions {
  /** The manifest has its own `managed_rules`, which the rewrite keeps (else it writes the proposal's rules, skip rules as exceptions). */
  ownManagedRules?: boolean;
}

/** Builds the report from the mapping of the manifest and the service's proposal. */
export function buildReport(zone: string, mapping: MappingResult, proposal: EntrypointBody, source: 'manifest' | 'live' = 'manifest', pageRules: readonly LivePageRule[] = [], options: ReportOptions = {}): EquivalenceReport {
  const acc: Accounting = { rules: new Set(), categories: new Set() };
  const own = options.ownManagedRules === true;
  const pages = pageRuleRows(pageRules, proposal, own);
  const managed = executing(proposal, ManagedRulesetIds.managed)?.action_parameters.overrides;
  const rows = [
    managedRow(proposal),
    ...owaspRows(mapping.owasp, proposal),
    ...vendorGroupRows(mapping.vendorGroups, managed, acc),
    ...vendorRuleRows(mapping.vendorRules, managed, acc),
    ...mapping.manual.map(manualRow),
    ...pages.rows,
    ...proposalRows(proposal, acc, pages.claimed, own),
  ];
  const counts: Record<Verdict, number> = { maps: 0, 'changes-meaning': 0, manual: 0, differs: 0, carried: 0 };
  for (const row of rows) counts[row.verdict] += 1;
  return { zone, source, rows, counts };
}
