/**
 * `zonewall validate PATH...`: checks manifests offline (YAML, schema, expressions, references,
 * priorities, WAF sections, and plan-tier rules when the tier is known from `plan:` or `--plan`)
 * and prints every error of every file at once, each as `file:line:col: path: message` with the
 * offending line and a caret run. A PATH may be a directory of manifests. Exit 1 when any error.
 * `--json` prints `{ valid, files, zones, errors, warnings }` instead.
 */
import type { Command } from 'commander';
import { PlanTiers } from '../../api/index.js';
import { ZonewallError } from '../../errors.js';
import {
  formatIssueWithExcerpt, loadManifests, type DesiredPlanTier, type DesiredZone, type LoadResult,
} from '../../manifest/index.js';
import { LintRules, lintZone, type LintFinding } from '../../manifest/index.js';
import { sarifLog } from '../views/sarif.js';
import { ExitCodes } from '../exit-codes.js';
import { jsonDocument } from '../views/json.js';
import type { CommandModule } from './command.js';

const tiers: readonly DesiredPlanTier[] = PlanTiers;

interface ValidateOptions {
  plan?: string;
  json?: boolean;
  format?: string;
}

/** Output formats of `validate`. */
const Formats = ['text', 'json', 'sarif'] as const;

/** The `validate` command. */
export const command: CommandModule = {
  register(program: Command): void {
    program
      .command('validate')
      .description('check manifests offline and print every error (exit 1 when any)')
      .argument('<paths...>', 'manifest files, or directories of *.yaml / *.yml manifests')
      .option('--plan <tier>', `check plan-dependent features for this tier (${tiers.join(', ')}); overrides the manifests' plan:`)
      .option('--json', 'print the result as JSON')
      .option('--format <format>', `output format: ${Formats.join(', ')} (SARIF 2.1.0, for code review tools)`)
      .action(async (paths: string[], opts: ValidateOptions) => {
        process.exitCode = await validate(paths, opts);
      });
  },
};

async function validate(paths: string[], opts: ValidateOptions): Promise<number> {
  if (opts.plan !== undefined && !(tiers as readonly string[]).includes(opts.plan)) {
    throw new ZonewallError('ERR_USAGE', `--plan must be one of ${tiers.join(', ')}, got ${opts.plan}`);
  }
  if (opts.format !== undefined && !(Formats as readonly string[]).includes(opts.format)) {
    throw new ZonewallError('ERR_USAGE', `--format must be one of ${Formats.join(', ')}, got ${opts.format}`);
  }
  if (opts.json === true && opts.format !== undefined && opts.format !== 'json') {
    throw new ZonewallError('ERR_USAGE', `choose one of --json and --format ${opts.format}`);
  }
  const result = await loadManifests(paths, opts.plan === undefined ? {} : { tier: opts.plan as DesiredPlanTier });
  // The linter's checks (docs/manifest.md#lint-checks) run on the valid zones; they are warnings.
  const lint = result.zones.flatMap(lintZone);
  if (opts.format === 'sarif') {
    const warnings = result.warnings.map((issue) => ({ issue, rule: LintRules.retired }));
    process.stdout.write(`${JSON.stringify(sarifLog({ errors: result.errors, warnings, lint }, LintRules.invalid, process.cwd()), null, 2)}\n`);
    return result.errors.length > 0 ? ExitCodes.error : ExitCodes.ok;
  }
  const json = opts.json === true || opts.format === 'json';
  process.stdout.write(json ? `${JSON.stringify({ ...(toJson(result) as object), lint: lint.map(lintJson) }, null, 2)}\n` : withLint(toText(result), lint));
  return result.errors.length > 0 ? ExitCodes.error : ExitCodes.ok;
}

function counts(zone: DesiredZone): string {
  const parts = [
    `${zone.filters.length} filter${zone.filters.length === 1 ? '' : 's'}`,
    `${zone.firewallRules.length} firewall rule${zone.firewallRules.length === 1 ? '' : 's'}`,
  ];
  if (zone.customRules !== undefined) parts.push(`${zone.customRules.length} custom rule${zone.customRules.length === 1 ? '' : 's'}`);
  if (zone.managedRules !== undefined) parts.push(`${zone.managedRules.length} managed ruleset${zone.managedRules.length === 1 ? '' : 's'}`);
  if (zone.managedExceptions !== undefined && zone.managedExceptions.length > 0) parts.push(`${zone.managedExceptions.length} managed exception${zone.managedExceptions.length === 1 ? '' : 's'}`);
  if (zone.rateLimitingRules !== undefined) parts.push(`${zone.rateLimitingRules.length} rate limiting rule${zone.rateLimitingRules.length === 1 ? '' : 's'}`);
  if (zone.pageRules !== undefined) parts.push(`${zone.pageRules.length} page rule${zone.pageRules.length === 1 ? '' : 's'}`);
  if (zone.previousWaf !== undefined) parts.push('previous WAF');
  if (zone.wafMigration !== undefined) parts.push(`waf_migration ${zone.wafMigration}`);
  return parts.join(', ');
}

function toText(result: LoadResult): string {
  const lines: string[] = [];
  if (result.account !== undefined) {
    const { file, account, lists } = result.account;
    const items = lists.reduce((n, l) => n + l.items.length, 0);
    lines.push(`ok ${file}: account ${account} (${lists.length} list${lists.length === 1 ? '' : 's'}, ${items} item${items === 1 ? '' : 's'})`);
  }
  // A zone can load and still fail a later check (an unknown $list): its file then gets its errors, not an "ok".
  const withErrors = new Set(result.errors.map((e) => e.file));
  for (const zone of result.zones) if (!withErrors.has(zone.file)) lines.push(`ok ${zone.file}: zone ${zone.zone} (${counts(zone)})`);
  for (const issue of result.errors) lines.push(formatIssueWithExcerpt(issue));
  // Warnings (a retired field such as cf.threat_score) never make a manifest invalid.
  for (const warning of result.warnings) lines.push(`warning: ${formatIssueWithExcerpt(warning)}`);
  const badFiles = new Set(result.errors.map((e) => e.file)).size;
  // Paths that could not be read are not in `files`, but count as files with errors.
  const total = new Set([...result.files, ...result.errors.map((e) => e.file)]).size;
  const n = result.errors.length;
  lines.push(n === 0
    ? `${result.files.length} manifest${result.files.length === 1 ? '' : 's'} valid`
    : `${n} error${n === 1 ? '' : 's'} in ${badFiles} of ${total} file${total === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}

function toJson(result: LoadResult): unknown {
  return jsonDocument('validate', {
    valid: result.errors.length === 0,
    files: result.files,
    zones: result.zones.map((z) => ({
      file: z.file, zone: z.zone, filters: z.filters.length, firewall_rules: z.firewallRules.length,
      managed_rules: z.managedRules?.length ?? null,
      // The other sections, as the text's counts name them (null: the manifest has no such section).
      managed_exceptions: z.managedExceptions?.length ?? null, custom_rules: z.customRules?.length ?? null,
      rate_limiting_rules: z.rateLimitingRules?.length ?? null, page_rules: z.pageRules?.length ?? null,
    })),
    account: result.account === undefined ? null : {
      file: result.account.file, account: result.account.account,
      lists: result.account.lists.map((l) => ({ name: l.name, kind: l.kind, items: l.items.length })),
    },
    errors: result.errors.map(({ file, line, column, path, message }) => ({ file, line, column, path, message })),
    // Warnings never make a manifest invalid (a retired field such as cf.threat_score).
    warnings: result.warnings.map(({ file, line, column, path, message }) => ({ file, line, column, path, message })),
  });
}

/** A lint finding as a text line, with its check id. */
function lintText(f: LintFinding): string {
  return `warning: ${formatIssueWithExcerpt(f)} [${f.rule.id} ${f.rule.name}]`;
}

/** A lint finding in `--json`. */
function lintJson(f: LintFinding): unknown {
  return { rule: f.rule.id, name: f.rule.name, level: f.rule.level, file: f.file, line: f.line, column: f.column, path: f.path, message: f.message };
}

/** The text report with the lint warnings above its summary line. */
function withLint(text: string, lint: readonly LintFinding[]): string {
  if (lint.length === 0) return text;
  const lines = text.trimEnd().split('\n');
  const summary = lines.pop()!;
  return `${[...lines, ...lint.map(lintText), summary].join('\n')}\n`;
}
