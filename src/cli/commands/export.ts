/**
 * `zonewall export --zone NAME [--out FILE]`: writes a manifest from a live zone (embedded engine
 * or remote) and adopts its objects: each live filter, firewall rule and entry point rule gets its
 * manifest key as `ref` (bulk PUTs, after the file is written), so the next plan matches every
 * object and shows no changes. `--no-adopt` only writes the file. The report says which objects
 * were adopted under which key, which already had it, and what could not be exported and why; it
 * goes to stdout with `--out`, and to stderr when the manifest itself goes to stdout.
 */
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { acquireZoneLock, zoneLocksDir, lockKey, writeFileAtomic } from '../../apply/index.js';
import { ZonewallError } from '../../errors.js';
import { exportAccountManifest, exportManifest, renderManifestYaml } from '../../plan/index.js';
import type { ExportResult, ExportedObject } from '../../plan/index.js';
import { sendAdoption } from '../adopt.js';
import { ExitCodes } from '../exit-codes.js';
import { addProviderOptions, engineStateDir, openCommandProvider } from '../provider-options.js';
import type { CommandModule } from './command.js';
import { readLiveAccount } from './lists-run.js';

/** Options of `export`. */
interface ExportCommandOptions extends Record<string, unknown> {
  zone?: string;
  out?: string;
  /** `--account`: write the account manifest (lists) instead of a zone's. */
  account?: string;
  adopt: boolean;
  force?: boolean;
  stateDir?: string;
}

/** The JSON Schema shipped with zonewall (`schemas/` at the package root, from src/ or dist/). */
const SchemaFile = fileURLToPath(new URL('../../../schemas/zone-manifest.schema.json', import.meta.url));

/** The `export` command. */
export const command: CommandModule = {
  register(program: Command): void {
    const cmd = program
      .command('export')
      .description('write a manifest from a live zone and adopt its objects (give each its manifest key as ref)')
      .option('--zone <name>', 'the zone (name or id)')
      .option('--account <name>', 'write the account manifest (its lists, every item) of this account (name or id) instead of a zone\'s')
      .option('--out <file>', 'write the manifest to FILE instead of stdout')
      .option('--force', 'overwrite FILE if it exists')
      .option('--no-adopt', 'only write the manifest: leave the live objects\' refs as they are');
    addProviderOptions(cmd);
    cmd.addHelpText('after', `
Adopting (the default) writes each object's key to its live ref, one bulk PUT per resource type,
after the manifest is written; then \`zonewall plan\` on the file shows no changes. Keys are the
existing ref when it is a valid key, else a slug of the description, else <kind>-<id prefix>.
Filters created by the simplified flow cannot be PUT: they are written inline under their rule and
matched through it. With --no-adopt, objects without a ref are not matched until adopted (a plan
shows them as new), so run export again without it before applying.`);
    cmd.action(async (opts: ExportCommandOptions) => {
      process.exitCode = await runExport(opts);
    });
  },
};

/** The `$schema` reference for a manifest written to `out` (relative, so it works offline in editors). */
function schemaRef(out: string | undefined): string {
  const from = out === undefined ? process.cwd() : dirname(resolve(out));
  const rel = relative(from, SchemaFile).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * Writes `text` to `file` atomically (temp file + rename), refusing to overwrite without --force.
 * Missing parent directories are created (`--out zones/NAME.yaml` in a fresh repository), and a
 * failed write leaves no temp file behind.
 */
function writeManifest(file: string, text: string, force: boolean): void {
  if (existsSync(file) && !force) {
    throw new ZonewallError('ERR_USAGE', `${file} exists: pass --force to overwrite it, or choose another --out`);
  }
  writeFileAtomic(file, text);
}

/**
 * Exports with the provider opened read-only first: without `--adopt`, or when every object already
 * has its key as ref, that is the whole export, and the state directory of the embedded engine is
 * neither created nor changed. Only when there is something to adopt is the export done again with
 * the provider opened for writing and the zone locked (as an apply), from a fresh read.
 */
async function runExport(opts: ExportCommandOptions): Promise<number> {
  if ((opts.account === undefined) === (opts.zone === undefined)) throw new ZonewallError('ERR_USAGE', 'give one of --zone NAME and --account NAME');
  if (opts.account !== undefined) return exportAccount(opts, opts.account);
  return (await exportZone(opts, { readOnly: true })) ?? (await exportZone(opts, { readOnly: false }))!;
}

/** Adoption writes to send. */
function hasAdoption(result: ExportResult): boolean {
  return result.adoption.writes.length > 0 || result.adoption.phaseWrites.length > 0;
}

/** The export; read-only: undefined (nothing done) when there are objects to adopt. */
async function exportZone(opts: ExportCommandOptions, use: { readOnly: boolean }): Promise<number | undefined> {
  const provider = await openCommandProvider(opts, process.env, use);
  let lock: { release(): void } | undefined;
  try {
    const { zone } = await provider.resolveZone(opts.zone!);
    const adopting = opts.adopt && !use.readOnly;
    if (adopting) {
      const stateDir = engineStateDir(provider, opts);
      lock = await acquireZoneLock({ dir: zoneLocksDir(provider, stateDir), key: lockKey(provider, zone.id), zone: zone.name });
    }
    const live = await provider.readZone(zone.id);
    const result = exportManifest(live);
    if (use.readOnly && opts.adopt && hasAdoption(result)) return undefined;
    const text = renderManifestYaml(result.document, {
      schema: schemaRef(opts.out),
      comments: [`Exported by zonewall from zone ${zone.name} (${zone.id}) from the ${provider.description}.`],
    });
    if (opts.out !== undefined && opts.out !== '-') writeManifest(opts.out, text, opts.force === true);
    else process.stdout.write(text);
    const report = opts.out !== undefined && opts.out !== '-' ? process.stdout : process.stderr;
    report.write(summaryLine(result, zone.name, opts.out));
    if (adopting) await sendAdoption(provider, zone.id, result.adoption, 'run zonewall export again');
    report.write(renderExportReport(result, opts.adopt));
    return ExitCodes.ok;
  } finally {
    lock?.release();
    await provider.close();
  }
}

const KindNames: Partial<Record<ExportedObject['kind'], string>> = { filter: 'filter', firewall_rule: 'firewall rule', custom_rule: 'custom rule', rate_limiting_rule: 'rate limiting rule', managed_ruleset: 'managed ruleset', managed_exception: 'managed-rules exception' };
const SourceNames: Record<ExportedObject['from'], string> = {
  ref: 'its ref', description: 'its description', id: 'its id', rule: 'its rule\'s key', ruleset: 'its ruleset',
};

function summaryLine(result: ExportResult, zone: string, out: string | undefined): string {
  const count = (kind: ExportedObject['kind']) => result.adopted.filter((o) => o.kind === kind).length;
  const where = out !== undefined && out !== '-' ? out : 'stdout';
  return `Exported zone ${zone} to ${where}: ${count('filter')} filter(s), ${count('firewall_rule')} firewall rule(s), ${count('custom_rule')} custom rule(s), ${count('managed_ruleset')} managed ruleset(s)${count('managed_exception') > 0 ? `, ${count('managed_exception')} managed-rules exception(s)` : ''}${count('rate_limiting_rule') > 0 ? `, ${count('rate_limiting_rule')} rate limiting rule(s)` : ''}.\n`;
}

/** Which objects were adopted (or would be), which kept their ref, and what was left out. */
export function renderExportReport(result: ExportResult, adopted: boolean): string {
  const lines: string[] = [];
  const changed = result.adopted.filter((o) => o.refChange);
  const locked = result.adopted.filter((o) => o.locked === true && (o.kind === 'filter'));
  const kept = result.adopted.filter((o) => !o.refChange && o.locked !== true);
  if (changed.length > 0) {
    lines.push(adopted ? `Adopted ${changed.length} object(s) (ref written):` : `Not adopted (--no-adopt): ${changed.length} object(s) need their ref written:`);
    for (const o of changed) lines.push(`  ${KindNames[o.kind] ?? o.kind} ${o.id} as ${o.key} (key from ${SourceNames[o.from]})`);
  }
  if (kept.length > 0) lines.push(`Already adopted: ${kept.length} object(s) whose ref is their key.`);
  if (locked.length > 0) {
    lines.push(`Simplified-flow filter(s) written inline, matched through their rule (their ref cannot be written):`);
    for (const o of locked) lines.push(`  filter ${o.id} under rule ${o.key}`);
  }
  if (result.skipped.length > 0) {
    lines.push(`Not exported (${result.skipped.length}); plans leave them alone unless they carry a ref:`);
    for (const s of result.skipped) lines.push(`  ${s.kind.replace('_', ' ')} ${s.id}${s.ref ? ` (ref ${s.ref})` : ''}: ${s.reason}`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The account manifest's `$schema` file. */
const AccountSchemaFile = fileURLToPath(new URL('../../../schemas/account-manifest.schema.json', import.meta.url));

/**
 * `export --account NAME`: the account manifest of the live lists. Lists are matched by name, so
 * the manifest adopts them as it is written (nothing to write to the service): `zonewall plan` on
 * it beside the zone manifests shows no change to the lists.
 */
async function exportAccount(opts: ExportCommandOptions, account: string): Promise<number> {
  const provider = await openCommandProvider(opts, process.env, { readOnly: true });
  try {
    const live = await readLiveAccount(provider, account);
    const from = opts.out === undefined ? process.cwd() : dirname(resolve(opts.out));
    const rel = relative(from, AccountSchemaFile).split(sep).join('/');
    const text = exportAccountManifest(live, rel.startsWith('.') ? rel : `./${rel}`);
    if (opts.out === undefined) process.stdout.write(text);
    else {
      writeManifest(opts.out, text, opts.force === true);
      const items = live.lists.reduce((n, l) => n + l.items.length, 0);
      process.stderr.write(`Wrote ${opts.out}: account ${live.name}, ${live.lists.length} list(s), ${items} item(s).\n`);
    }
    return ExitCodes.ok;
  } finally {
    await provider.close();
  }
}
