/**
 * `zonewall migrate`: the migration from the previous WAF to the ruleset-based WAF.
 *
 * - `zonewall migrate PATH [--mode validation|pending] [--force] [--write]`: checks compatibility,
 *   prints the equivalence report and the manifest diff; with `--mode`, PUTs the entry point as a
 *   migration step (`pending` needs `--force`); with `--write`, writes the rewritten manifest.
 * - `zonewall migrate [PATH] --from-terraform-state FILE [--zone NAME] [--write]`: converts
 *   Terraform state into a manifest (printed, or written to PATH with `--write`).
 * - `zonewall migrate status --zone NAME`: both WAFs' state and the migration mode.
 * - `zonewall migrate delete-overrides --zone NAME (ID...|--all) [--force]`: deletes URI-based
 *   overrides, which block the migration.
 * - `zonewall migrate firewall-rules MANIFEST [--write] [--force] [--json]`: filters + firewall rules
 *   into custom rules, with an equivalence proof (`migrate-firewall.ts`).
 * - `zonewall migrate firewall-cutover MANIFEST [--auto-approve] [--force]`: the live zone moves to
 *   the custom rules in three confirmed steps (`migrate-cutover.ts`).
 * - `zonewall migrate firewall-terraform STATE`: a Terraform state's filters + firewall rules as a
 *   `cloudflare_ruleset` of custom rules, and the steps to finish (`migrate-firewall-terraform.ts`).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { acquireZoneLock, zoneLocksDir, lockKey, readApplyRecord, removeApplyRecord, writeFileAtomic } from '../../apply/index.js';
import { ZonewallError } from '../../errors.js';
import { ManifestError, validateManifestText } from '../../manifest/index.js';
import {
  checkConvertedAccountManifest, checkConvertedManifest, convertTerraform, renderAccountManifest, deleteUriOverrides, parseTerraformState, readMigrationStatus, renderBlockers,
  renderConversionReport, renderConvertedManifest, renderMigrationStatus, renderReport, runMigration,
  terraformAdoption, WafStateLabels,
} from '../../migrate/index.js';
import type { ConvertedManifest, MigrateOutcome, MigrationMode } from '../../migrate/index.js';
import type { Provider } from '../../providers/index.js';
import { sendAdoption } from '../adopt.js';
import { addProviderOptions, engineStateDir, openCommandProvider, providerFlags, providerOptions, stateDirOption } from '../provider-options.js';
import type { CommandModule } from './command.js';
import { readFailure, readText, registerFirewallRules } from './migrate-firewall.js';
import { registerFirewallCutover } from './migrate-cutover.js';
import { registerFirewallTerraform } from './migrate-firewall-terraform.js';
import { jsonDocument } from '../views/json.js';

/** Options of `zonewall migrate` (provider options are passed through to `openCommandProvider`). */
interface MigrateOptions extends Record<string, unknown> {
  mode?: string;
  write?: boolean;
  force?: boolean;
  fromTerraformState?: string;
  zone?: string;
}

/** Runs `fn` with an open provider (`readOnly`: for a command that only reads; see `openCommandProvider`), closing it afterwards. */
async function withProvider<T>(opts: Record<string, unknown>, fn: (p: Provider) => Promise<T>, use: { readOnly?: boolean } = {}): Promise<T> {
  const provider = await openCommandProvider(opts, process.env, use);
  try {
    return await fn(provider);
  } finally {
    await provider.close();
  }
}

/** The `migrate` command and its subcommands. */
export const command: CommandModule = {
  register(program: Command): void {
    const migrate = program
      .command('migrate')
      .description('migrate a zone from the previous WAF to the ruleset-based WAF (dry run unless --mode; writes the manifest only with --write)')
      .argument('[path]', 'the zone\'s manifest')
      .option('--mode <mode>', 'apply a migration step: validation (Enterprise: both WAFs run) or pending (finish; irreversible)')
      .option('--force', 'confirm the irreversible --mode pending (with --from-terraform-state: overwrite PATH)')
      .option('--write', 'write the rewritten (or converted) manifest to PATH')
      .option('--from-terraform-state <file>', 'convert a Terraform state (.tfstate or `terraform show -json`) into a manifest')
      .option('--zone <name>', 'with --from-terraform-state: the zone to convert and to name in the manifest')
      // Subcommands take options of the same names (--zone, provider options): keep each to its own command.
      .enablePositionalOptions();
    addProviderOptions(migrate);
    migrate.action(async (path: string | undefined, opts: MigrateOptions) => {
      if (opts.fromTerraformState !== undefined) await fromTerraform(path, opts.fromTerraformState, opts);
      else await migrateManifest(path, opts);
    });

    const status = migrate.command('status').description('show both WAFs\' state and the migration mode of a zone')
      .option('--zone <name>', 'zone name or id (required)')
      .option('--json', 'print the status as JSON (snake_case fields, format_version, kind zonewall.migration-status)');
    addProviderOptions(status);
    status.action(async (_opts: unknown, cmd: Command) => {
      const opts = subcommandOptions(cmd);
      const report = await withProvider(opts, (p) => readMigrationStatus(p, opts.zone), { readOnly: true });
      process.stdout.write(opts.json === true ? `${JSON.stringify(jsonDocument('migration-status', report), null, 2)}\n` : renderMigrationStatus(report));
    });

    const del = migrate.command('delete-overrides').description('delete URI-based WAF overrides, which block the migration (dry run without --force)')
      .argument('[ids...]', 'override ids')
      .option('--zone <name>', 'zone name or id (required)')
      .option('--all', 'every URI-based override of the zone')
      .option('--force', 'delete them (without it, only list them)');
    addProviderOptions(del);
    del.action(async (ids: string[], _opts: unknown, cmd: Command) => {
      await deleteOverrides(ids, subcommandOptions(cmd));
    });

    registerFirewallRules(migrate);
    registerFirewallCutover(migrate);
    registerFirewallTerraform(migrate);
  },
};

/** Options of a subcommand with a required `--zone`. */
type ZoneOptions = { zone: string; json?: boolean; all?: boolean; force?: boolean } & Record<string, unknown>;

/**
 * A subcommand's options merged with `migrate`'s: both declare `--zone`, `--force` and the provider
 * options, and depending on how the program parses, such an option written after the subcommand
 * lands on one or the other.
 */
function subcommandOptions(cmd: Command): ZoneOptions {
  const opts = cmd.optsWithGlobals() as Record<string, unknown>;
  if (typeof opts.zone !== 'string' || opts.zone === '') {
    throw new ZonewallError('ERR_USAGE', `zonewall migrate ${cmd.name()} needs --zone NAME (the zone's name or id)`);
  }
  return opts as ZoneOptions;
}

/** `zonewall migrate PATH ...`. */
async function migrateManifest(path: string | undefined, opts: MigrateOptions): Promise<void> {
  if (path === undefined) throw new ZonewallError('ERR_USAGE', 'zonewall migrate needs the zone\'s manifest: zonewall migrate PATH (or --from-terraform-state FILE)');
  if (opts.mode !== undefined && opts.mode !== 'validation' && opts.mode !== 'pending') {
    throw new ZonewallError('ERR_USAGE', `--mode must be validation or pending, got ${opts.mode}`);
  }
  const text = await readText(path);
  // Validate the very text that will be rewritten (not a second read of the file).
  const loaded = validateManifestText(text, path);
  if (loaded.zone === undefined) throw new ManifestError(loaded.issues);
  const desired = loaded.zone;
  const out = (s: string) => process.stdout.write(s);
  // Set once the step's PUT is about to be sent: from then on the zone may have moved forward.
  let stepping = false;
  const outcome = await withProvider(opts, (provider) => runMigration(
    {
      provider, manifest: { path, text, desired }, flags: providerFlags(opts), ...(opts.mode !== undefined ? { mode: opts.mode as MigrationMode } : {}), force: opts.force === true,
      // The apply lock of the zone: no apply writes between the migration's read and its PUT.
      lock: opts.mode === undefined ? undefined : async (zone) => {
        const held = await acquireZoneLock({ dir: zoneLocksDir(provider, engineStateDir(provider, opts)), key: lockKey(provider, zone.id), zone: zone.name });
        return () => {
          try {
            if (stepping) forgetRollback(engineStateDir(provider, opts), zone, out);
          } finally {
            held.release();
          }
        };
      },
    },
    {
      blocked: (zone, reasons, blockers) => out(renderBlockers(zone.name, reasons, blockers, providerFlags(opts))),
      report: (report) => out(`${renderReport(report)}\n`),
      applying: (mode, source) => {
        stepping = true;
        out(`Applying: PUT of the http_request_firewall_managed entry point with waf_migration=${mode}, `
          + `carrying ${{ manifest: 'the manifest\'s managed_rules', live: 'the validated entry point', proposal: 'the service\'s proposal' }[source]}\n`);
      },
    },
  // Without --mode it is a dry run: it only reads (the manifest it may --write is not in the state directory).
  ), { readOnly: opts.mode === undefined });
  await finish(path, outcome, opts.write === true, providerFlags(opts));
}

/**
 * A migration step is never undone by the service ("going back is not possible"), so on the
 * embedded engine, once one was sent, `zonewall rollback` may no longer restore the zone to before
 * its last apply: that would take the zone back to the previous WAF. The record of that apply goes.
 */
function forgetRollback(stateDir: string | undefined, zone: { id: string; name: string }, out: (s: string) => void): void {
  if (stateDir === undefined) return;
  const record = readApplyRecord(stateDir, zone.id);
  if (record === undefined) return;
  removeApplyRecord(stateDir, zone.id);
  out(`zonewall rollback can no longer undo the apply of ${record.at} to ${zone.name}: restoring the zone to before it would undo the migration step, which the service never does.\n`);
}

/** Prints the outcome and writes the manifest when asked. */
async function finish(path: string, o: MigrateOutcome, write: boolean, flags: string): Promise<void> {
  const out = (s: string) => process.stdout.write(s);
  if (o.applied !== undefined) out(`${o.zone.name}: ${WafStateLabels[o.before]} -> ${WafStateLabels[o.after]}\n`);
  else if (o.before === 'new_only') out(`${o.zone.name} already runs the new WAF only; nothing to apply.\n`);
  // `zonewall migrate --mode` rather than `zonewall apply`: only the migration PUTs the proposal's skip rules too.
  else out(`Dry run: nothing applied. The manifest records waf_migration: ${o.wafMigration}; take the step with zonewall migrate ${path}${flags} --mode ${o.wafMigration}${o.wafMigration === 'pending' ? ' --force' : ''}.\n`);
  if (o.diff === '') {
    out(`${path} already says what the zone ${o.applied !== undefined || o.before === 'new_only' ? 'now runs' : 'would run'}.\n`);
    return;
  }
  out(o.diff);
  if (write) {
    writeFileAtomic(path, o.text);
    out(`Wrote ${path}. zonewall plan ${path}${flags} should now show no changes${o.applied === undefined && o.before !== 'new_only' ? ' other than the migration itself' : ''}.\n`);
  } else {
    out(`${path} not written: run again with --write to write it${o.applied !== undefined ? ' (the zone has changed; the manifest should follow)' : ''}.\n`);
  }
}

/** `zonewall migrate [PATH] --from-terraform-state FILE`. */
async function fromTerraform(path: string | undefined, file: string, opts: MigrateOptions): Promise<void> {
  if (opts.mode !== undefined) throw new ZonewallError('ERR_USAGE', '--from-terraform-state writes a manifest and changes no zone: run zonewall migrate PATH --mode ... on the manifest afterwards');
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw readFailure(file, err);
  });
  const converted = convertTerraform(parseTerraformState(text, file).resources, opts.zone, file);
  const manifest = renderConvertedManifest(converted, file);
  const report = renderConversionReport(converted, path ?? 'zone.yaml');
  // Lists belong to the account: an account manifest beside the zone manifest (one per directory).
  const account = converted.lists === undefined ? undefined : renderAccountManifest(converted.lists, file);
  const accountPath = join(dirname(path ?? 'zone.yaml'), 'account.yaml');
  if (path === undefined || opts.write !== true) {
    // The manifest alone on stdout, so `> zone.yaml` works; the report (and the account manifest) beside it on stderr.
    process.stdout.write(manifest);
    process.stderr.write(report);
    if (account !== undefined) process.stderr.write(`Account manifest (${accountPath} with --write):\n${account}`);
    // Printed for review even when invalid, but the run fails so `> zone.yaml` in a script notices.
    checkConvertedManifest(manifest, file);
    if (account !== undefined) checkConvertedAccountManifest(account, file);
    if (path !== undefined) process.stderr.write(`${path} not written: run again with --write to write it.\n`);
    return;
  }
  checkConvertedManifest(manifest, file);
  if (account !== undefined) checkConvertedAccountManifest(account, file);
  for (const target of account === undefined ? [path] : [path, accountPath]) {
    if (existsSync(target) && opts.force !== true) {
      throw new ZonewallError('ERR_USAGE', `${target} exists; the converted ${target === path ? 'manifest' : 'account manifest'} would replace it entirely: pass --force to overwrite it, or choose another PATH`);
    }
  }
  writeFileAtomic(path, manifest);
  process.stdout.write(`Wrote ${path}.\n`);
  if (account !== undefined) {
    writeFileAtomic(accountPath, account);
    process.stdout.write(`Wrote ${accountPath} (the account's lists).\n`);
  }
  process.stdout.write(await adoptConverted(converted, path, opts));
  process.stdout.write(report);
}

/**
 * Adopts the live objects the state's ids name (zonewall's "import into the tool's state": their
 * ref becomes their manifest key), so a plan of the written manifest shows no changes. Only where
 * the zone already is: a remote API, or an embedded engine whose state directory exists (a
 * conversion alone never creates one).
 */
async function adoptConverted(converted: ConvertedManifest, path: string, opts: MigrateOptions): Promise<string> {
  const where = providerOptions(opts, process.env);
  if (where.remote === undefined && !existsSync(where.stateDir ?? stateDirOption(opts))) {
    return `Nothing adopted: no embedded engine state at ${where.stateDir ?? stateDirOption(opts)} (pass --state-dir or --remote to adopt the zone's live objects).\n`;
  }
  return withProvider(opts, async (provider) => {
    const found = await provider.resolveZone(converted.zone).catch(() => undefined);
    if (found === undefined) return `Nothing adopted: zone ${converted.zone} is not at the ${provider.description}.\n`;
    const { zone } = found;
    const stateDir = engineStateDir(provider, opts);
    const held = await acquireZoneLock({ dir: zoneLocksDir(provider, stateDir), key: lockKey(provider, zone.id), zone: zone.name });
    try {
      const adoption = terraformAdoption(converted, await provider.readZone(zone.id));
      await sendAdoption(provider, zone.id, adoption.writes, `run zonewall migrate ${path} --from-terraform-state ... --write --force again`);
      const lines = [`Adopted ${adoption.adopted.length} live object(s) of ${zone.name} named by the state's ids (ref written):`, ...adoption.adopted.map((a) => `  ${a}`)];
      if (adoption.missing.length > 0) lines.push(`Not in the zone (the plan creates them): ${adoption.missing.join(', ')}`);
      return `${lines.join('\n')}\n`;
    } finally {
      held.release();
    }
  });
}

/** `zonewall migrate delete-overrides`. */
async function deleteOverrides(ids: string[], opts: ZoneOptions): Promise<void> {
  if (opts.all === true && ids.length > 0) throw new ZonewallError('ERR_USAGE', 'pass override ids or --all, not both');
  const result = await withProvider(opts, (p) => deleteUriOverrides(p, opts.zone, opts.all === true ? 'all' : ids, opts.force === true));
  const out = (s: string) => process.stdout.write(s);
  if (result.selected.length === 0) {
    out(`${result.zone.name} has no URI-based WAF overrides.\n`);
    return;
  }
  for (const o of result.selected) out(`${result.deleted ? 'deleted' : 'would delete'} ${o.id}  ${o.urls.join(', ')}${o.description ? `  (${o.description})` : ''}\n`);
  if (!result.deleted) out('Nothing deleted: run again with --force to delete them.\n');
}
