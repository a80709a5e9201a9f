/**
 * `zonewall migrate firewall-rules MANIFEST [--cases FILE] [--write] [--force] [--json]`: converts
 * the manifest's filters + firewall rules into custom rules (`src/migrate/firewall`), proves the
 * rewrite against the zone's `zonewall test` cases and a corpus generated from the expressions
 * (`src/policy/equivalence`: the proof lives in policy because migrate may not import the
 * evaluators), prints the report and the manifest diff, and writes the manifest with `--write`.
 * A request whose verdict differs, or a finding that cannot be carried over, refuses the write
 * (and fails the run) unless `--force`. Nothing is read from or written to a zone.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../apply/index.js';
import { ZonewallError, fileErrorReason } from '../../errors.js';
import type { Lists } from '../../expr/index.js';
import { ManifestError, encodingIssue, findAccountManifest, validateManifestText, type DesiredZone } from '../../manifest/index.js';
import { hasFirewallRules, manifestDiff, rewriteCases, upgradeFirewallManifest, type FirewallUpgrade } from '../../migrate/index.js';
import { PolicyTestsError, findCasesFile, listsOf, loadCasesFile, proveEquivalence, type TestCase } from '../../policy/index.js';
import { ExitCodes } from '../exit-codes.js';
import { FirewallUpgradeJsonVersion, firewallUpgradeReport, renderFirewallUpgradeText, type FirewallUpgradeReport } from '../views/firewall-upgrade.js';

/** Options of `migrate firewall-rules`. */
export interface FirewallRulesOptions {
  cases?: string;
  write?: boolean;
  force?: boolean;
  json?: boolean;
}

/** Registers `migrate firewall-rules` under the `migrate` command. */
export function registerFirewallRules(migrate: Command): Command {
  return migrate.command('firewall-rules')
    .description('convert the manifest\'s filters + firewall_rules into custom_rules, with an equivalence proof (writes only with --write)')
    .argument('<manifest>', 'the zone\'s manifest')
    .option('--cases <file>', 'the zone\'s cases file (default: the one zonewall test finds beside the manifest)')
    .option('--write', 'write the rewritten manifest (refused when the proof finds a difference or a rule cannot carry over, unless --force)')
    .option('--force', 'write even with differences or rules that cannot carry over')
    .option('--json', 'print the report as JSON')
    .action(async (manifest: string, _opts: unknown, cmd: Command) => {
      // `migrate` declares --write and --force too: written after the subcommand they may land on either.
      process.exitCode = await migrateFirewallRules(manifest, cmd.optsWithGlobals() as FirewallRulesOptions);
    });
}

export async function readText(path: string): Promise<string> {
  const text = await readFile(path, 'utf8').catch((err: unknown) => {
    throw readFailure(path, err);
  });
  // Not UTF-8: a located error, not a `�` read into a zone name.
  const encoding = encodingIssue(path, text);
  if (encoding !== undefined) throw new ManifestError([encoding]);
  return text;
}

/** The one-line error of a file the migrate commands cannot read: the reason in words for the usual ones (not Node's errno text). */
export function readFailure(path: string, err: unknown): ZonewallError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why = code === 'EISDIR' ? 'it is a directory; give a file' : code === 'ENOENT' && path !== '' ? 'no such file'
    : fileErrorReason(err);
  return new ZonewallError('ERR_USAGE', `cannot read ${path === '' ? '""' : path}: ${why}`, { cause: err });
}

/** The zone's cases: `--cases`, else the file `zonewall test` would use; none when there is none. */
export async function casesOf(manifest: string, given: string | undefined): Promise<{ file?: string; text?: string; cases: TestCase[] }> {
  const file = given ?? (await findCasesFile(manifest));
  if (file === undefined) return { cases: [] };
  const loaded = await loadCasesFile(file);
  if (loaded.cases === undefined) throw new PolicyTestsError(`invalid cases file ${file}`, loaded.issues);
  return { file, text: await readText(file), cases: loaded.cases.cases };
}

/**
 * What `$name` resolves to in the proof: the lists of the account manifest beside the manifest, as
 * `zonewall test` reads them (and the managed lists' samples); undefined when the zone uses no list
 * or there is no account manifest (then a list matches nothing, before and after).
 */
export async function proofLists(path: string, zone: DesiredZone): Promise<Lists | undefined> {
  if (zone.listReferences === undefined) return undefined;
  const account = (await findAccountManifest([path]))?.account;
  return account === undefined ? undefined : listsOf(account);
}

/** The cases file's new text and diff: its names of firewall rules become the custom rules'. */
export function casesRewrite(up: FirewallUpgrade, file: string | undefined, text: string | undefined): { text: string; diff: string } | undefined {
  if (file === undefined || text === undefined) return undefined;
  const refOf = new Map([...up.conversion.sources].map(([ref, source]) => [source.ruleKey, ref]));
  const rewritten = rewriteCases(text, refOf);
  return { text: rewritten, diff: manifestDiff(file, text, rewritten) };
}

/** Runs the subcommand; returns the exit code. */
export async function migrateFirewallRules(path: string, opts: FirewallRulesOptions): Promise<number> {
  const text = await readText(path);
  const loaded = validateManifestText(text, path);
  if (loaded.zone === undefined || loaded.issues.length > 0) throw new ManifestError(loaded.issues);
  const before = loaded.zone;
  if (!hasFirewallRules(before)) {
    const empty: FirewallUpgradeReport = {
      format_version: FirewallUpgradeJsonVersion, kind: 'zonewall.firewall-upgrade', manifest: path, zone: before.zone, converted: [], findings: [], proof: null,
      blockers: [], forced: opts.force === true, written: false, diff: '', cases_diff: '',
    };
    process.stdout.write(opts.json === true ? `${JSON.stringify(empty, null, 2)}\n` : `${path} has no filters or firewall_rules: nothing to convert.\n`);
    return ExitCodes.ok;
  }
  const up = upgradeFirewallManifest(path, text, before);
  const { file: casesFile, text: casesText, cases } = await casesOf(path, opts.cases);
  const lists = await proofLists(path, before);
  const proof = up.after === undefined ? undefined : proveEquivalence({ before, after: up.after, cases, renames: up.renames, ...(lists !== undefined ? { lists } : {}) });
  const newCases = casesRewrite(up, casesFile, casesText);
  const force = opts.force === true;
  const draft = firewallUpgradeReport(path, before.zone, up, proof, { file: casesFile, diff: newCases?.diff ?? '' }, { force, written: false });
  const blocked = draft.blockers.length > 0 && !force;
  const written = opts.write === true && !blocked;
  if (written) {
    writeFileAtomic(path, up.text);
    if (casesFile !== undefined && newCases !== undefined && newCases.diff !== '') writeFileAtomic(casesFile, newCases.text);
  }
  const report: FirewallUpgradeReport = { ...draft, written };
  if (opts.json === true) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(textOutcome(path, before, up, report, opts.write === true));
  return blocked ? ExitCodes.error : ExitCodes.ok;
}

function textOutcome(path: string, before: DesiredZone, up: FirewallUpgrade, report: FirewallUpgradeReport, asked: boolean): string {
  let out = renderFirewallUpgradeText(report) + up.diff + report.cases_diff;
  const cases = report.cases_diff !== '' && report.proof?.cases_file != null ? ` and ${report.proof.cases_file} (its cases now name the custom rules)` : '';
  if (report.written) return `${out}Wrote ${path}: ${report.converted.length} custom rule(s) in place of ${before.firewallRules.length} firewall rule(s) and ${before.filters.length} filter(s) (inline ones included)${cases}.\n`;
  if (report.blockers.length > 0 && !report.forced) {
    out += `${path} ${asked ? 'not written' : 'would not be written'}: ${report.blockers.join('; ')}. Review them; pass --force to write it anyway.\n`;
    return out;
  }
  return `${out}${path} not written: run again with --write to write it.\n`;
}
