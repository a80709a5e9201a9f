/**
 * `zonewall migrate firewall-cutover MANIFEST [--auto-approve] [--force]`: moves a live zone from its
 * filters + firewall rules to custom rules in three steps (`src/migrate/firewall/cutover.ts`):
 * stage the converted rules disabled, compare the live zone's two generations (`migrate-cutover-compare.ts`),
 * enable them, delete the firewall rules and their filters.
 * The equivalence proof runs first (a difference or a rule that cannot carry over refuses the
 * cutover without `--force`); each step is planned against the zone, shown, confirmed as `apply`
 * confirms (`--auto-approve` otherwise), applied with the zone locked; the manifest (and its
 * cases) is rewritten once the last step is done, so the next plan is empty. A re-run after a
 * failure resumes at the step the zone is in (`resumeStep`).
 */
import type { Command } from 'commander';
import { acquireZoneLock, applyZone, zoneLocksDir, lockKey, writeFileAtomic, type ApplyZoneResult } from '../../apply/index.js';
import { findAccountManifest, ManifestError, validateManifestText, type DesiredPlanTier } from '../../manifest/index.js';
import { cutoverSteps, hasFirewallRules, removalOrder, resumeStep, upgradeFirewallManifest, type CutoverStep, type FirewallUpgrade } from '../../migrate/index.js';
import { diffZone, hasChanges, readsFor, renderPlanText, type Plan } from '../../plan/index.js';
import type { Provider } from '../../providers/index.js';
import { ExitCodes } from '../exit-codes.js';
import { addProviderOptions, engineStateDir, openCommandProvider } from '../provider-options.js';
import { renderApplyResult } from '../views/apply-text.js';
import { styleFor } from '../views/color.js';
import { firewallUpgradeReport, renderFirewallUpgradeText } from '../views/firewall-upgrade.js';
import { assertCanConfirm, confirm } from '../views/prompt.js';
import { proveEquivalence, readZoneLists, traceRequestOf } from '../../policy/index.js';
import type { TraceRequest } from '../../providers/index.js';
import { compareLive } from './migrate-cutover-compare.js';
import { casesOf, casesRewrite, proofLists, readText } from './migrate-firewall.js';

/** Options of `migrate firewall-cutover`. */
export interface CutoverOptions extends Record<string, unknown> {
  autoApprove?: boolean;
  force?: boolean;
  cases?: string;
}

/** Registers `migrate firewall-cutover` under the `migrate` command. */
export function registerFirewallCutover(migrate: Command): Command {
  const cmd = migrate.command('firewall-cutover')
    .description('move the live zone from its filters + firewall_rules to custom_rules in three confirmed steps, then rewrite the manifest')
    .argument('<manifest>', 'the zone\'s manifest (with its filters and firewall_rules)')
    .option('--cases <file>', 'the zone\'s cases file for the proof (default: the one zonewall test finds beside the manifest)')
    .option('--auto-approve', 'do not ask for confirmation before each step (required without a terminal)')
    .option('--force', 'cut over despite differences in the proof or rules that cannot carry over');
  addProviderOptions(cmd);
  return cmd.action(async (manifest: string, _opts: unknown, sub: Command) => {
    process.exitCode = await firewallCutover(manifest, sub.optsWithGlobals() as CutoverOptions);
  });
}

/** How the steps meet the user: output, and the confirmation of a step's plan. */
export interface CutoverIo {
  write(text: string): void;
  confirm(step: CutoverStep, plan: Plan): Promise<boolean>;
}

/** Where the cutover stopped (undefined: every step is done). */
export interface CutoverOutcome {
  done: boolean;
  stoppedAt?: CutoverStep['name'];
  reason?: 'cancelled' | 'failed' | 'differs';
}

/** The compare step, before `enable`: the live zone's two generations over the corpus. */
async function compareStep(provider: Provider, zoneId: string, step: CutoverStep, requests: readonly TraceRequest[], account: string | undefined, io: CutoverIo): Promise<boolean> {
  const live = await provider.readZone(zoneId);
  // `$name` is the zone's account's lists, as `zonewall test --against-zone` reads them (`readZoneLists`).
  const notes: string[] = [];
  const lists = await readZoneLists(provider, live, live.zone.account, account, notes);
  for (const note of notes) io.write(`Note: ${note}\n`);
  const { compared, differences } = compareLive(live, step.desired, requests, lists);
  if (differences.length === 0) {
    io.write(`Compare: ${compared} request(s) traced through the zone's firewall rules and through its staged custom rules: every verdict is the same.\n`);
    return true;
  }
  io.write(`Compare: ${differences.length} of ${compared} request(s) end differently on the zone's staged custom rules:\n`);
  for (const d of differences.slice(0, 20)) io.write(`  ${JSON.stringify(d.request)}: ${d.before} -> ${d.after}\n`);
  return false;
}

/**
 * Plans, confirms and applies each step in turn; stops at the first refusal or failure.
 * @example const outcome = await runCutover(steps, provider, { force: false, stateDir }, io);
 */
export async function runCutover(steps: readonly CutoverStep[], provider: Provider, options: { force: boolean; stateDir?: string; color?: boolean; batchSize?: number; requests?: readonly TraceRequest[]; account?: string }, io: CutoverIo): Promise<CutoverOutcome> {
  const s = styleFor(process.stdout, { color: options.color ?? false });
  const first = steps[0];
  if (first === undefined) return { done: true };
  const { zone } = await provider.resolveZone(first.desired.zone, {});
  const from = resumeStep(steps, await provider.readZone(zone.id, readsFor(first.desired)));
  if (from > 0) io.write(`The cutover of ${zone.name} has begun: resuming at step ${from + 1}/${steps.length} (${steps[from]!.name}).\n`);
  for (const [i, step] of steps.entries()) {
    if (i < from) continue;
    io.write(`\nStep ${i + 1}/${steps.length} (${step.name}): ${step.summary}\n`);
    const lock = await acquireZoneLock({ dir: zoneLocksDir(provider, options.stateDir), key: lockKey(provider, zone.id), zone: zone.name, timeoutMs: 0 });
    try {
      if (step.name === 'enable' && !(await compareStep(provider, zone.id, step, options.requests ?? [], options.account, io)) && !options.force) {
        return { done: false, stoppedAt: step.name, reason: 'differs' };
      }
      // The deletions of the last step are its purpose, proved before: no mass-deletion guard there.
      const planOptions = step.name === 'remove' ? { deleteThreshold: 100 } : {};
      const planned = diffZone(step.desired, await provider.readZone(zone.id, readsFor(step.desired)), planOptions);
      const plan = step.name === 'remove' ? removalOrder(planned, steps[0]!.desired) : step.name === 'enable' ? withoutProvenExceptions(planned) : planned;
      io.write(renderPlanText(plan, s));
      if (!hasChanges(plan)) continue;
      if (!(await io.confirm(step, plan))) return { done: false, stoppedAt: step.name, reason: 'cancelled' };
      const result: ApplyZoneResult = await applyZone(plan, provider, { force: options.force, ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}), ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}) });
      io.write(renderApplyResult(result, s, { rollbackHint: result.record !== undefined }));
      if (!result.ok) return { done: false, stoppedAt: step.name, reason: 'failed' };
    } finally {
      lock.release();
    }
  }
  return { done: true };
}

/**
 * The enable step turns on the staged skip rules, the custom form of the zone's allow and bypass
 * firewall rules, which still run first; the compare step proved the verdicts unchanged, so the
 * exceptions it enables are not weakenings (the other danger findings still stop it).
 */
function withoutProvenExceptions(plan: Plan): Plan {
  const proven = new Set(['widens-exception', 'skips-managed-rules']);
  return { ...plan, findings: plan.findings.filter((f) => !(f.kind === 'custom_rule' && proven.has(f.code))) };
}

function stoppedMessage(outcome: CutoverOutcome): string {
  const state = outcome.stoppedAt === 'remove'
    ? 'the custom rules enforce; what is left of the firewall rules runs before them and decides as they do'
    : 'the firewall rules still enforce; the converted custom rules are disabled or decide as they do';
  return `Cutover ${outcome.reason === 'cancelled' ? 'cancelled' : outcome.reason === 'differs' ? 'stopped by the compare (pass --force to go on)' : 'stopped'} at step ${outcome.stoppedAt}: ${state}. Run the command again to continue; the manifest was not rewritten.\n`;
}

/** The zone's plan as the provider says it (read-only: a refusal later must leave no file changed). */
async function liveTier(opts: CutoverOptions, zone: string): Promise<DesiredPlanTier | undefined> {
  const reader = await openCommandProvider(opts, process.env, { readOnly: true });
  try {
    return (await reader.resolveZone(zone)).zone.plan;
  } finally {
    await reader.close();
  }
}

/** Runs the subcommand; returns the exit code. */
export async function firewallCutover(path: string, opts: CutoverOptions): Promise<number> {
  const text = await readText(path);
  const loaded = validateManifestText(text, path);
  if (loaded.zone === undefined || loaded.issues.length > 0) throw new ManifestError(loaded.issues);
  const before = loaded.zone;
  if (!hasFirewallRules(before)) {
    process.stdout.write(`${path} has no filters or firewall_rules: nothing to cut over.\n`);
    return ExitCodes.ok;
  }
  // The live zone's plan: a manifest without `plan:` says nothing of the custom rules quota, which
  // would otherwise stop the stage step, on lines of a rewritten text that is not on disk.
  const tier = await liveTier(opts, before.zone);
  const up = upgradeFirewallManifest(path, text, before, tier !== undefined ? { tier } : {});
  const cases = await casesOf(path, opts.cases);
  const lists = await proofLists(path, before);
  const proof = up.after === undefined ? undefined : proveEquivalence({ before, after: up.after, cases: cases.cases, renames: up.renames, ...(lists !== undefined ? { lists } : {}) });
  const force = opts.force === true;
  const report = firewallUpgradeReport(path, before.zone, up, proof, { file: cases.file, diff: '' }, { force, written: false });
  process.stdout.write(renderFirewallUpgradeText(report));
  if (up.after === undefined || (report.blockers.length > 0 && !force)) {
    process.stderr.write(`error: nothing cut over: ${report.blockers.join('; ') || 'the rewritten manifest does not load'}${up.after === undefined ? '' : '; pass --force to cut over anyway'}\n`);
    return ExitCodes.error;
  }
  assertCanConfirm(opts.autoApprove === true, 'firewall-cutover asks for confirmation of each step on a terminal; without one, pass --auto-approve (nothing was applied)');
  const steps = cutoverSteps(before, up.after, up.conversion.customRules.map((r) => r.ref));
  const provider = await openCommandProvider(opts, process.env);
  try {
    const stateDir = engineStateDir(provider, opts);
    const io: CutoverIo = {
      write: (t) => process.stdout.write(t),
      confirm: async (step) => opts.autoApprove === true || confirm(`\nApply step ${step.name} to ${before.zone}?`,
        `Cutover cancelled at the prompt of step ${step.name}: that step and the ones after it were not applied; the steps before it stay applied (run the command again to resume).`),
    };
    const requests = cases.cases.map((c) => traceRequestOf(c, before.zone));
    // The account manifest beside the manifest names the account of the lists when the service does not say the zone's.
    const account = (await findAccountManifest([path]))?.account?.account;
    const outcome = await runCutover(steps, provider, { force, requests, ...(stateDir !== undefined ? { stateDir } : {}), ...(account !== undefined ? { account } : {}) }, io);
    if (!outcome.done) {
      process.stderr.write(stoppedMessage(outcome));
      return ExitCodes.error;
    }
  } finally {
    await provider.close();
  }
  process.stdout.write(writeRewritten(path, before.zone, up, cases));
  return ExitCodes.ok;
}

/** The manifest and its cases as `migrate firewall-rules --write` writes them; returns the closing line. */
function writeRewritten(path: string, zone: string, up: FirewallUpgrade, cases: { file?: string; text?: string }): string {
  writeFileAtomic(path, up.text);
  const newCases = casesRewrite(up, cases.file, cases.text);
  const casesChanged = cases.file !== undefined && newCases !== undefined && newCases.diff !== '';
  if (casesChanged) writeFileAtomic(cases.file!, newCases!.text);
  return `\nCutover done: ${zone} runs ${up.conversion.customRules.length} converted custom rule(s); no filter or firewall rule is left. Wrote ${path}${casesChanged ? ` and ${cases.file}` : ''}.\n`;
}
