/**
 * Reads a trace answer (offline or live, the same shape) into a `Verdict` whose rules carry the
 * names cases use: `firewall_rules.<key>` from the rule's `ref` (a live rule without one is named
 * by its id and called unmanaged), `custom_rules.<key>` from the custom rule's `ref`, `managed_rules.<ref>.<rule id>` from the entry point rule's
 * `ref`, `previous_waf.<package>.<rule id>` with the package's alias (`owasp`, `cloudflare`).
 */
import { PreviousWafPackageAliases } from '../manifest/index.js';
import type { TraceCustomMatch, TraceFirewallMatch, TraceLegacyMatch, TraceManagedMatch, TraceResult } from '../providers/index.js';
import type { MatchedRule, Verdict } from './types.js';

/** What the answer's ids stand for in the zone that gave it. */
export interface ZoneNames {
  /** A firewall rule's expression, by rule id (undefined when unknown). */
  expressionOf(ruleId: string): string | undefined;
  /** An entry point rule's ref, by rule id. */
  entrypointRef(ruleId: string): string;
  /** A custom rule's expression, by ref (undefined when unknown). */
  customExpressionOf?(ref: string): string | undefined;
  /** True for a live custom rule without a ref of its own (the API shows its id as ref). */
  customUnmanaged?(match: TraceCustomMatch): boolean;
}

const packageAliases = new Map<string, string>(Object.entries(PreviousWafPackageAliases).map(([alias, id]) => [id, alias]));

function firewallRule(m: TraceFirewallMatch, names: ZoneNames): MatchedRule {
  const name = `firewall_rules.${m.ref ?? m.id}`;
  const expression = names.expressionOf(m.id);
  const unmanaged = m.ref === undefined ? ' (unmanaged: no ref)' : '';
  return { name, aliases: [name], action: m.action, detail: `${expression ?? 'filter deleted'}${unmanaged}` };
}

function customRule(m: TraceCustomMatch, names: ZoneNames): MatchedRule {
  const name = `custom_rules.${m.ref}`;
  const unmanaged = names.customUnmanaged?.(m) === true ? ' (unmanaged: no ref)' : '';
  return { name, aliases: [name], action: m.action, detail: `${names.customExpressionOf?.(m.ref) ?? m.description ?? ''}${unmanaged}` };
}

function managedRule(m: TraceManagedMatch, names: ZoneNames): MatchedRule {
  const ruleset = `managed_rules.${names.entrypointRef(m.entrypoint_rule)}`;
  const name = `${ruleset}.${m.rule_id}`;
  const score = m.score !== undefined ? ` (score ${m.score})` : '';
  return { name, aliases: [name, ruleset], action: m.action, detail: `${m.ruleset}: ${m.description}${score}` };
}

type ManagedSkip = NonNullable<TraceResult['managed_rules']>['skipped'][number];

/** A managed-rules exception that matched, named by its ref, with the managed rules it skipped that match the request. */
function managedException(s: ManagedSkip, names: ZoneNames): MatchedRule {
  const name = `managed_rules.${names.entrypointRef(s.entrypoint_rule)}`;
  return { name, aliases: [name], action: 'skip', detail: `exception: skipped ${skippedText(s, names)}` };
}

/** The managed rules an exception skipped that match the request, by name; or what it skips when none did. */
function skippedText(s: ManagedSkip, names: ZoneNames): string {
  const rules = s.rules ?? [];
  if (rules.length === 0) return 'no managed rule that matches this request';
  return rules.map((m) => `${managedRule(m, names).name} (${m.description})`).join(', ');
}

function legacyRule(m: TraceLegacyMatch): MatchedRule {
  const pkg = packageAliases.get(m.package_id) ?? m.package_id;
  const name = `previous_waf.${pkg}.${m.rule_id}`;
  const aliases = [name, `previous_waf.${pkg}`, `previous_waf.${m.package_id}`, `previous_waf.${m.package_id}.${m.rule_id}`];
  const score = m.score !== undefined ? ` (score ${m.score})` : '';
  return { name, aliases: [...new Set(aliases)], action: m.action, detail: `${m.package}: ${m.description}${score}` };
}

/** The verdict of a trace answer. */
export function verdictOf(trace: TraceResult, names: ZoneNames): Verdict {
  const fw = trace.firewall_rules.matched.map((m) => firewallRule(m, names));
  const custom = trace.custom_rules?.matched.map((m) => customRule(m, names)) ?? [];
  const exceptions = trace.managed_rules?.skipped.map((s) => managedException(s, names)) ?? [];
  const managed = [...exceptions, ...(trace.managed_rules?.matched.map((m) => managedRule(m, names)) ?? [])];
  const legacy = trace.previous_waf?.matched.map(legacyRule) ?? [];
  let rule: string | null = null;
  if (trace.decided_by === 'firewall_rules' && trace.firewall_rules.rule !== null) rule = firewallRule(trace.firewall_rules.rule, names).name;
  if (trace.decided_by === 'custom_rules' && trace.custom_rules?.rule) rule = customRule(trace.custom_rules.rule, names).name;
  if (trace.decided_by === 'managed_rules' && trace.managed_rules?.rule) rule = managedRule(trace.managed_rules.rule, names).name;
  if (trace.decided_by === 'previous_waf' && trace.previous_waf?.rule) rule = legacyRule(trace.previous_waf.rule).name;
  return { action: trace.action, decided_by: trace.decided_by, rule, matched: [...fw, ...custom, ...managed, ...legacy], notes: notesOf(trace) };
}

/** Scores and skips that explain the verdict (only of the part that decided, or of all when none did). */
function notesOf(trace: TraceResult): string[] {
  const notes: string[] = [];
  const about = (part: NonNullable<TraceResult['decided_by']>) => trace.decided_by === null || trace.decided_by === part;
  const owasp = trace.managed_rules?.owasp;
  if (owasp !== undefined && owasp.score > 0 && about('managed_rules')) {
    notes.push(`managed OWASP anomaly score ${owasp.score} ${owasp.exceeded ? '>=' : '<'} threshold ${owasp.threshold}`);
  }
  const legacy = trace.previous_waf?.owasp;
  if (legacy !== undefined && legacy.score > 0 && about('previous_waf')) {
    notes.push(`previous WAF OWASP score ${legacy.score} ${legacy.exceeded ? '>=' : '<'} threshold ${legacy.threshold} (sensitivity ${legacy.sensitivity})`);
  }
  const endedBy = trace.custom_rules?.ended_by;
  if (endedBy !== undefined && trace.decided_by === null) notes.push(`custom_rules.${endedBy} skipped the remaining custom rules`);
  // When a rule ended the request the WAFs' "skipped" says so again; otherwise it explains a quiet WAF.
  const skipped = trace.previous_waf?.skipped;
  if (trace.firewall_rules.rule === null && trace.custom_rules?.rule == null && skipped !== undefined) notes.push(`previous WAF skipped: ${skipped}`);
  return notes;
}
