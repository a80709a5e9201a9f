/**
 * `zonewall engine zone create|list|show|delete`: manage the zones of the embedded engine in a
 * state directory (default `.zonewall/`). An apply against the embedded engine creates a missing
 * zone by itself (at its first write); these commands are for choosing its plan tier up front,
 * inspecting and cleaning up. `--json` prints the v4 zone objects instead of text.
 */
import type { Command } from 'commander';
import { ZonewallError } from '../../errors.js';
import { holdPrivateState } from '../../providers/index.js';
import { Engine, PlanTiers, accountIdOf, accountToJson, zoneToJson, type PlanTier, type ZoneInfo } from '../../engine/index.js';
import { ExitCodes } from '../exit-codes.js';
import { assertCanConfirm, confirm } from '../views/prompt.js';
import type { CommandModule } from './command.js';
import { StateDirHelp, stateDirOption } from '../provider-options.js';
import { assertStateDirUsable } from '../state-dir-access.js';

interface CommonOptions {
  stateDir: string;
  json?: boolean;
}

/** The options as commander gives them: `--state-dir` may be absent. */
type Flags = Omit<CommonOptions, 'stateDir'> & { stateDir?: string };

/** The options with the state directory found when `--state-dir` is not given (`stateDirOption`). */
function withStateDir<T extends Flags>(opts: T): T & CommonOptions {
  return { ...opts, stateDir: stateDirOption(opts) };
}

/** The `engine` command and its `zone` subcommands. */
export const command: CommandModule = {
  register(program: Command): void {
    const engine = program.command('engine').description('manage the embedded engine');
    const zone = engine.command('zone').description('zones of the embedded engine');
    const common = (c: Command, json: string): Command => c
      .option('--state-dir <dir>', StateDirHelp)
      .option('--json', json);
    common(zone.command('create <name>').description('create a zone'), 'print the new zone as the v4 API\'s zone object (JSON)')
      .option('--plan <tier>', `plan tier: ${PlanTiers.join(', ')}`, 'enterprise')
      .option('--waf <version>', 'WAF the zone starts with: previous (default; free zones have none) or new (already migrated to managed rulesets)')
      .option('--account <account>', 'the account (name or id) the zone belongs to; default: the engine\'s default account')
      .action(async (name: string, opts: Flags & { plan: string; waf?: string; account?: string }) => create(name, withStateDir(opts)));
    const account = engine.command('account').description('accounts of the embedded engine (their zones share their lists)');
    common(account.command('create <name>').description('create an account'), 'print the new account as the v4 API\'s account object (JSON)')
      .option('--plan <tier>', `plan tier of its lists quotas: ${PlanTiers.join(', ')}`, 'enterprise')
      .action(async (name: string, opts: Flags & { plan: string }) => createAccount(name, withStateDir(opts)));
    common(account.command('list').description('list accounts'), 'print the accounts as a JSON list of the v4 API\'s account objects').action(async (opts: Flags) => listAccounts(withStateDir(opts)));
    common(zone.command('list').description('list zones'), 'print the zones as a JSON list of the v4 API\'s zone objects').action(async (opts: Flags) => list(withStateDir(opts)));
    common(zone.command('show <zone>').description('show a zone (name or id)'), 'print the v4 API\'s zone object with filters and firewall_rules counts (JSON)').action(async (z: string, opts: Flags) => show(z, withStateDir(opts)));
    common(zone.command('delete <zone>').description('delete a zone and all its data (name or id), after confirmation'), 'print {"id": ...} of the deleted zone (JSON)')
      .option('--auto-approve', 'do not ask for confirmation (required without a terminal)')
      .action(async (z: string, opts: Flags & { autoApprove?: boolean }) => remove(z, withStateDir(opts)));
  },
};

/** Opens the engine; `readOnly` (list, show): nothing in the state directory is created or changed, a missing one reads as empty. */
async function withEngine<T>(opts: CommonOptions, fn: (engine: Engine) => Promise<T>, use: { readOnly?: boolean } = {}): Promise<T> {
  // Opened for writing (create, delete): what the engine creates there is the user's only (0700, 0600).
  // Only a writer walks the state directory first (`state-dir-access.ts`); a reader is told by storage.
  if (use.readOnly !== true) assertStateDirUsable(opts.stateDir, { writes: true });
  const held = use.readOnly === true ? undefined : holdPrivateState(opts.stateDir);
  try {
    const engine = await Engine.open({ dir: opts.stateDir, ...(use.readOnly === true ? { readOnly: true } : {}) });
    try {
      return await fn(engine);
    } finally {
      await engine.close();
    }
  } finally {
    held?.release();
  }
}

async function createAccount(name: string, opts: CommonOptions & { plan: string }): Promise<void> {
  if (!(PlanTiers as readonly string[]).includes(opts.plan)) {
    throw new ZonewallError('ERR_USAGE', `--plan must be one of ${PlanTiers.join(', ')}, got ${opts.plan}`);
  }
  const account = await withEngine(opts, async (e) => {
    if ((await e.getAccount(name)) !== undefined) throw new ZonewallError('ERR_USAGE', `account ${name} already exists in ${opts.stateDir}`);
    try {
      return await e.createAccount(name, { plan: opts.plan as PlanTier });
    } catch (err) {
      if (err instanceof TypeError) throw new ZonewallError('ERR_USAGE', err.message);
      throw err;
    }
  });
  print(opts, accountToJson(account), `created account ${account.name} (id ${account.id}, plan ${account.plan}) in ${opts.stateDir}\n`);
}

async function listAccounts(opts: CommonOptions): Promise<void> {
  const accounts = await withEngine(opts, (e) => e.listAccounts(), { readOnly: true });
  print(opts, accounts.map(accountToJson), table([['NAME', 'ID', 'PLAN', 'CREATED'], ...accounts.map((a) => [a.name, a.id, a.plan, a.created_on])]));
}

async function create(name: string, opts: CommonOptions & { plan: string; waf?: string; account?: string }): Promise<void> {
  if (!(PlanTiers as readonly string[]).includes(opts.plan)) {
    throw new ZonewallError('ERR_USAGE', `--plan must be one of ${PlanTiers.join(', ')}, got ${opts.plan}`);
  }
  if (opts.waf !== undefined && opts.waf !== 'previous' && opts.waf !== 'new') {
    throw new ZonewallError('ERR_USAGE', `--waf must be previous or new, got ${opts.waf}`);
  }
  const waf = opts.waf as 'previous' | 'new' | undefined;
  const zone = await withEngine(opts, async (e) => {
    if (opts.account !== undefined && (await e.getAccount(opts.account)) === undefined) {
      throw new ZonewallError('ERR_USAGE', `no account ${JSON.stringify(opts.account)} in ${opts.stateDir}; create it with: zonewall engine account create NAME`);
    }
    const z = await e.createZone(name, { plan: opts.plan as PlanTier, ...(waf !== undefined ? { waf } : {}), ...(opts.account !== undefined ? { account: opts.account } : {}) });
    return { ...z, account: await e.getAccount(accountIdOf(z)) };
  });
  print(opts, zoneToJson(zone, zone.account), `created zone ${zone.name} (id ${zone.id}, plan ${zone.plan}) in ${opts.stateDir}\n`);
}

async function list(opts: CommonOptions): Promise<void> {
  const zones = await withEngine(opts, (e) => e.listZones(), { readOnly: true });
  const text = zones.length === 0
    ? `no zones in ${opts.stateDir}; create one with: zonewall engine zone create NAME --plan TIER\n`
    : table([['NAME', 'ID', 'PLAN', 'CREATED'], ...zones.map((z) => [z.name, z.id, z.plan, z.created_on])]);
  print(opts, zones.map((z) => zoneToJson(z)), text);
}

async function show(nameOrId: string, opts: CommonOptions): Promise<void> {
  await withEngine(opts, async (e) => {
    const zone = await mustFind(e, nameOrId, opts);
    const counts = await countObjects(e, zone);
    const json = { ...zoneToJson(zone), filters: counts.filters, firewall_rules: counts.rules };
    print(opts, json, table([
      ['name', zone.name], ['id', zone.id], ['plan', zone.plan], ['status', zone.status], ['created', zone.created_on],
      ['filters', String(counts.filters)], ['firewall rules', String(counts.rules)],
      ['rule quota', `${e.planLimits[zone.plan].firewall_rules} active rules`],
    ]));
  }, { readOnly: true });
}

/**
 * Deletes a zone after the same confirmation as `apply` (type `yes`; `--auto-approve` skips it and
 * is required without a terminal): the deletion cannot be undone, bookmarks included.
 */
async function remove(nameOrId: string, opts: CommonOptions & { autoApprove?: boolean }): Promise<void> {
  const approved = opts.autoApprove === true;
  assertCanConfirm(approved, 'engine zone delete asks for confirmation on a terminal; without one, pass --auto-approve (nothing was deleted)');
  const zone = await withEngine(opts, async (e) => {
    const z = await mustFind(e, nameOrId, opts);
    if (!approved) {
      const counts = await countObjects(e, z);
      const question = `\nDelete zone ${z.name} (id ${z.id}, ${counts.filters} filters, ${counts.rules} firewall rules) and all its data from ${opts.stateDir}? This cannot be undone.`;
      if (!(await confirm(question, 'Zone deletion cancelled at the prompt: nothing was deleted.'))) return undefined;
    }
    await e.deleteZone(z.id);
    return z;
  });
  if (zone === undefined) {
    process.stderr.write('Zone deletion cancelled: nothing was deleted.\n');
    process.exitCode = ExitCodes.error;
    return;
  }
  print(opts, { id: zone.id }, `deleted zone ${zone.name} (id ${zone.id}) and all its data\n`);
}

async function mustFind(engine: Engine, nameOrId: string, opts: CommonOptions): Promise<ZoneInfo> {
  const zone = await engine.getZone(nameOrId);
  if (zone === undefined) {
    throw new ZonewallError('ERR_USAGE', `no zone ${JSON.stringify(nameOrId)} in ${opts.stateDir}; list zones with: zonewall engine zone list --state-dir ${opts.stateDir}`);
  }
  return zone;
}

async function countObjects(engine: Engine, zone: ZoneInfo): Promise<{ filters: number; rules: number }> {
  const total = async (path: string): Promise<number> => {
    const res = await engine.dispatch({ method: 'GET', path: `/zones/${zone.id}${path}`, query: new URLSearchParams({ per_page: '5' }) });
    return res.body.result_info?.total_count ?? 0;
  };
  return { filters: await total('/filters'), rules: await total('/firewall/rules') };
}

function print(opts: CommonOptions, json: unknown, text: string): void {
  process.stdout.write(opts.json === true ? `${JSON.stringify(json, null, 2)}\n` : text);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}
