/**
 * The report of `zonewall migrate firewall-rules`, as data (`FirewallUpgradeReport`, also its JSON
 * form) and as text: what each firewall rule became, the findings, the equivalence proof with every
 * request whose verdict differs (both verdicts), and whether the write is blocked and why.
 */
import type { FirewallUpgrade } from '../../migrate/index.js';
import type { EquivalenceProof, ProofVerdict } from '../../policy/index.js';

/** Differences the text report shows (cases first, then generated requests, in order); JSON has all. */
const MaxShown = 20;

/** The JSON report's version, `MAJOR.MINOR` like every `--json` document's; the major is bumped when a field changes meaning or goes. */
export const FirewallUpgradeJsonVersion = '1.0';

/** The report (its JSON form is this object). */
export interface FirewallUpgradeReport {
  format_version: typeof FirewallUpgradeJsonVersion;
  kind: 'zonewall.firewall-upgrade';
  manifest: string;
  zone: string;
  /** One entry per converted rule, in the new list order. */
  converted: { firewall_rule: string; filter: string; custom_rule: string; action: string; action_parameters?: Record<string, unknown>; enabled: boolean }[];
  findings: { ref: string; kind: string; message: string }[];
  proof: {
    cases_file: string | null;
    cases: number;
    generated: number;
    expressions: number;
    differences: EquivalenceProof['differences'];
  } | null;
  /** Why the write is refused without --force (empty: nothing blocks it). */
  blockers: string[];
  forced: boolean;
  /** Whether the manifest (and the cases file, when its diff is not empty) were written. */
  written: boolean;
  diff: string;
  /** The diff of the cases file: its `firewall_rules.<key>` names become the custom rules' (empty: no change). */
  cases_diff: string;
}

/** The report of an upgrade and its proof (undefined when the rewritten manifest could not be loaded). */
export function firewallUpgradeReport(
  manifest: string, zone: string, up: FirewallUpgrade, proof: EquivalenceProof | undefined,
  cases: { file: string | undefined; diff: string }, flags: { force: boolean; written: boolean },
): FirewallUpgradeReport {
  const blockers: string[] = [];
  const cannot = up.conversion.findings.filter((f) => f.kind === 'cannot-carry');
  if (cannot.length > 0) blockers.push(`${cannot.length} finding(s) cannot be carried over exactly`);
  if (proof !== undefined && proof.differences.length > 0) blockers.push(`${proof.differences.length} request(s) get a different verdict`);
  return {
    format_version: FirewallUpgradeJsonVersion,
    kind: 'zonewall.firewall-upgrade',
    manifest,
    zone,
    converted: up.conversion.customRules.map((r) => {
      const source = up.conversion.sources.get(r.ref)!;
      const row: FirewallUpgradeReport['converted'][number] = { firewall_rule: source.ruleKey, filter: source.filterRef, custom_rule: r.ref, action: r.action, enabled: r.enabled };
      if (r.actionParameters !== undefined) row.action_parameters = { ...r.actionParameters };
      return row;
    }),
    findings: up.conversion.findings.map((f) => ({ ...f })),
    proof: proof === undefined ? null : { cases_file: cases.file ?? null, cases: proof.cases, generated: proof.generated, expressions: proof.expressions, differences: proof.differences },
    blockers,
    forced: flags.force,
    written: flags.written,
    diff: up.diff,
    cases_diff: cases.diff,
  };
}

function verdictText(v: ProofVerdict): string {
  const end = v.action === null ? 'reaches the origin' : `${v.action}${v.rule !== null ? ` by ${v.rule}` : ''}`;
  return v.matched.length > 0 ? `${end} (matched: ${v.matched.join(', ')})` : end;
}

function parameters(p: Record<string, unknown> | undefined): string {
  if (p === undefined) return '';
  return ` ${Object.entries(p).map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.join(', ')}]` : String(v)}`).join(', ')}`;
}

function proofText(r: FirewallUpgradeReport): string[] {
  const p = r.proof;
  if (p === null) return ['Equivalence proof: not run (the rewritten manifest does not load; see the findings).'];
  const what = `${p.cases} case(s)${p.cases_file !== null ? ` of ${p.cases_file}` : ''} + ${p.generated} request(s) generated from ${p.expressions} expression(s)`;
  if (p.differences.length === 0) return [`Equivalence proof: ${what}: every verdict is the same.`];
  const lines = [`Equivalence proof: ${what}: ${p.differences.length} verdict(s) differ:`];
  for (const d of p.differences.slice(0, MaxShown)) {
    lines.push(`  ${d.source} ${JSON.stringify(d.name)}: ${JSON.stringify(d.request)}`);
    lines.push(`    before: ${verdictText(d.before)}`);
    lines.push(`    after:  ${verdictText(d.after)}`);
  }
  if (p.differences.length > MaxShown) lines.push(`  ... and ${p.differences.length - MaxShown} more (--json lists every one)`);
  return lines;
}

/** The text report, without the diff (the command prints it after). */
export function renderFirewallUpgradeText(r: FirewallUpgradeReport): string {
  const lines = [`${r.manifest}: ${r.converted.length} firewall rule(s) of ${r.zone} become custom rules, in evaluation order:`];
  for (const c of r.converted) {
    const state = c.enabled ? '' : ' (disabled)';
    lines.push(`  firewall_rules.${c.firewall_rule} (filter ${c.filter}) -> custom_rules.${c.custom_rule}: ${c.action}${parameters(c.action_parameters)}${state}`);
  }
  if (r.findings.length > 0) {
    lines.push('Findings:');
    for (const f of r.findings) lines.push(`  ${f.kind} ${f.ref}: ${f.message}`);
  }
  lines.push(...proofText(r));
  return `${lines.join('\n')}\n`;
}
