/**
 * `zonewall migrate firewall-terraform STATE [--zone NAME] [--manifest PATH] [--name NAME] [--force]`:
 * the state's `cloudflare_filter` + `cloudflare_firewall_rule` resources (any address: count,
 * for_each, modules) converted as `migrate --from-terraform-state` converts them, then into custom
 * rules by the firewall upgrade (with its equivalence proof over the generated corpus). Prints the
 * `cloudflare_ruleset` of the custom phase as HCL on stdout (so `> custom_rules.tf` works) and the
 * report and the steps that finish in Terraform on stderr. Nothing is written; no zone is touched.
 */
import type { Command } from 'commander';
import { ZonewallError } from '../../errors.js';
import type { Lists } from '../../expr/index.js';
import { ManifestError, validateAccountManifestText, validateManifestText } from '../../manifest/index.js';
import {
  convertTerraform, kindOf, parseTerraformState, renderAccountManifest, renderConvertedManifest, renderCustomRulesetHcl, renderTerraformFinish, upgradeFirewallManifest,
  type ConvertedLists,
} from '../../migrate/index.js';
import { listsOf, proveEquivalence } from '../../policy/index.js';
import { ExitCodes } from '../exit-codes.js';
import { firewallUpgradeReport, renderFirewallUpgradeText } from '../views/firewall-upgrade.js';
import { readText } from './migrate-firewall.js';

/** Options of `migrate firewall-terraform`. */
export interface FirewallTerraformOptions {
  zone?: string;
  manifest?: string;
  name?: string;
  force?: boolean;
}

/** Registers `migrate firewall-terraform` under the `migrate` command. */
export function registerFirewallTerraform(migrate: Command): Command {
  return migrate.command('firewall-terraform')
    .description('convert a Terraform state\'s filters + firewall rules into a cloudflare_ruleset of custom rules (HCL on stdout) and print the steps to finish')
    .argument('<state>', 'a .tfstate file or the output of `terraform show -json`')
    .option('--zone <name>', 'the zone to convert (a zone id of the state, or its name)')
    .option('--manifest <path>', 'the manifest `migrate --from-terraform-state` wrote, named in the steps', 'zone.yaml')
    .option('--name <name>', 'the cloudflare_ruleset resource name', 'custom_rules')
    .option('--force', 'print the HCL even when the proof finds a difference or a rule cannot carry over (exit 0)')
    .action(async (state: string, _opts: unknown, cmd: Command) => {
      process.exitCode = await firewallTerraform(state, cmd.optsWithGlobals() as FirewallTerraformOptions);
    });
}

/**
 * What `$name` resolves to in the proof: the state's own `cloudflare_list` resources, as
 * `migrate --from-terraform-state` writes them into the account manifest (and the managed lists'
 * samples); without them a list matches nothing, before and after, and the rules on it go unproved.
 */
function stateLists(lists: ConvertedLists | undefined, file: string): Lists | undefined {
  if (lists === undefined) return listsOf(undefined);
  const account = validateAccountManifestText(renderAccountManifest(lists, file), 'account.yaml').account;
  return listsOf(account);
}

/** Runs the subcommand; returns the exit code. */
export async function firewallTerraform(file: string, opts: FirewallTerraformOptions): Promise<number> {
  const resources = parseTerraformState(await readText(file), file).resources.filter((r) => {
    const kind = kindOf(r.type);
    return kind === 'filter' || kind === 'firewall_rule' || kind === 'zone' || kind === 'list' || kind === 'list_item';
  });
  const converted = convertTerraform(resources, opts.zone, file);
  if (converted.firewallRules.length === 0) {
    throw new ZonewallError('ERR_USAGE', `${file}: no cloudflare_firewall_rule resource of zone ${converted.zone}: nothing to convert`);
  }
  const text = renderConvertedManifest(converted, file);
  const manifest = opts.manifest ?? 'zone.yaml';
  const loaded = validateManifestText(text, manifest);
  if (loaded.zone === undefined || loaded.issues.length > 0) throw new ManifestError(loaded.issues);
  const before = loaded.zone;
  const up = upgradeFirewallManifest(manifest, text, before);
  const lists = before.listReferences === undefined ? undefined : stateLists(converted.lists, file);
  const proof = up.after === undefined ? undefined : proveEquivalence({ before, after: up.after, cases: [], renames: up.renames, ...(lists !== undefined ? { lists } : {}) });
  const force = opts.force === true;
  const report = firewallUpgradeReport(manifest, before.zone, up, proof, { file: undefined, diff: '' }, { force, written: false });
  process.stderr.write(renderFirewallUpgradeText(report));
  // A rule whose filter is not in the state cannot be carried into the HCL: it would vanish from the zone.
  const missing = converted.notes.filter((n) => n.code === 'missing-filter');
  for (const note of converted.notes) process.stderr.write(`${note.code === 'missing-filter' ? 'cannot-carry' : note.severity}: ${note.address}: ${note.message}\n`);
  const blockers = [...report.blockers, ...(missing.length > 0 ? [`${missing.length} firewall rule(s) of the state cannot carry over (their filter is not in the state)`] : [])];
  if (blockers.length > 0 && !force) {
    process.stderr.write(`error: no HCL printed: ${blockers.join('; ')}. Review them; pass --force to print it anyway.\n`);
    return ExitCodes.error;
  }
  const name = opts.name ?? 'custom_rules';
  const zoneId = converted.zoneId ?? before.zone;
  process.stdout.write(renderCustomRulesetHcl(name, zoneId, up.conversion.customRules));
  const addresses = converted.converted.filter((a) => /(^|\.)(?:svc|cloudflare)_(?:filter|firewall_rule)\./.test(a));
  process.stderr.write(renderTerraformFinish({ resourceName: name, zoneId, addresses, manifest, state: file }));
  return ExitCodes.ok;
}
