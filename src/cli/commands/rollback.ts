/**
 * `zonewall rollback --zone NAME [--auto-approve]`: restores a zone of the embedded engine to before
 * its last apply (the PITR bookmark apply recorded), with the zone locked, and says what it did.
 * Like `apply`, it asks for confirmation on a terminal (type `yes`) and, without a terminal, needs
 * `--auto-approve` (else it refuses in one line and changes nothing). Remote providers keep no
 * bookmarks: rollback refuses and says how to undo instead.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { acquireZoneLock, applyRecordsDir, zoneLocksDir, lockKey, readApplyRecord, rollbackZone } from '../../apply/index.js';
import { WorkerdStateFolder } from '../../engine/index.js';
import { ZonewallError } from '../../errors.js';
import { ExitCodes } from '../exit-codes.js';
import { assertStateFolderWritable } from '../state-dir-access.js';
import { assertCanConfirm, confirm } from '../views/prompt.js';
import { openCommandProvider, providerOptions, StateDirHelp, stateDirOption } from '../provider-options.js';
import type { CommandModule } from './command.js';
import { parseDuration } from './duration.js';

/** Options of `rollback`. */
interface RollbackOptions extends Record<string, unknown> {
  zone?: string;
  stateDir?: string;
  lockTimeout?: string;
  autoApprove?: boolean;
}

/** The `rollback` command. */
export const command: CommandModule = {
  register(program: Command): void {
    const cmd = program
      .command('rollback')
      .description('restore a zone of the embedded engine to before its last apply')
      .requiredOption('--zone <name>', 'the zone (name or id)')
      .option('--auto-approve', 'do not ask for confirmation (required without a terminal)')
      .option('--lock-timeout <duration>', 'wait this long for an apply to the zone to finish; 0 refuses at once', '0')
      .option('--state-dir <dir>', StateDirHelp)
      // Accepted only to refuse a remote API in one line that says how to undo instead (as
      // $ZONEWALL_API_URL is); not listed, as rollback never uses one.
      .addOption(new Option('--remote <url>').hideHelp());
    cmd.action(async (opts: RollbackOptions) => {
      process.exitCode = await rollback(opts);
    });
  },
};

/**
 * A state directory served by `serve --runtime workerd` keeps its zones in workerd's objects, and
 * workerd run locally has no point-in-time recovery: say so in one line instead of restoring the
 * built-in copies the directory also holds.
 */
function refuseWorkerdState(stateDir: string | undefined): void {
  if (stateDir === undefined || !existsSync(join(stateDir, WorkerdStateFolder))) return;
  throw new ZonewallError('ERR_STORAGE_UNSUPPORTED',
    `rollback: the zones of ${stateDir} run on the workerd runtime (serve --runtime workerd), which has no point-in-time recovery locally; undo the apply by applying the previous manifest (a deployed Worker restores with POST /client/v4/zones/ZONE_ID/pitr/restore {"at": TIME})`);
}

/**
 * Checks with the engine opened read-only that there is something to roll back (the zone, and the
 * record of its last apply): a rollback refused for lack of either creates and changes no file
 * (no state directory where there was none, no lock file). The rollback itself checks again.
 */
async function assertRollbackable(opts: RollbackOptions): Promise<{ zone: string; at: string }> {
  const reader = await openCommandProvider(opts, process.env, { readOnly: true });
  try {
    if (reader.kind !== 'engine') {
      throw new ZonewallError('ERR_USAGE', `rollback needs the embedded engine; ${reader.description} keeps no bookmarks: undo a remote apply by applying the previous manifest`);
    }
    const stateDir = stateDirOption(opts);
    const { zone } = await reader.resolveZone(opts.zone!);
    const record = readApplyRecord(stateDir, zone.id);
    if (record === undefined) {
      throw new ZonewallError('ERR_USAGE', `no apply to roll back for zone ${zone.name} in ${stateDir} (a rollback undoes the last apply once)`);
    }
    return { zone: zone.name, at: record.at };
  } finally {
    await reader.close();
  }
}

async function rollback(opts: RollbackOptions): Promise<number> {
  if (opts.zone === undefined || opts.zone === '') throw new ZonewallError('ERR_USAGE', '--zone is required');
  refuseWorkerdState(providerOptions(opts, process.env).stateDir);
  const last = await assertRollbackable(opts);
  // The record is removed after the restore: a folder that refuses it must refuse the rollback first.
  assertStateFolderWritable(applyRecordsDir(stateDirOption(opts)), stateDirOption(opts));
  // Asked before anything is opened for writing: refused or declined, no file changes.
  assertCanConfirm(opts.autoApprove === true, 'rollback asks for confirmation on a terminal; without one, pass --auto-approve (nothing was rolled back)');
  if (opts.autoApprove !== true) {
    const cancelled = 'Rollback cancelled at the prompt: nothing was rolled back.';
    if (!await confirm(`\nRoll back ${last.zone} to before the apply of ${last.at}? Changes made since are undone too.`, cancelled)) {
      process.stderr.write('Rollback cancelled: nothing was rolled back.\n');
      return ExitCodes.error;
    }
  }
  const provider = await openCommandProvider(opts, process.env);
  try {
    if (provider.kind !== 'engine') {
      throw new ZonewallError('ERR_USAGE', `rollback needs the embedded engine; ${provider.description} keeps no bookmarks: undo a remote apply by applying the previous manifest`);
    }
    const stateDir = stateDirOption(opts);
    const { zone } = await provider.resolveZone(opts.zone);
    const lock = await acquireZoneLock({ dir: zoneLocksDir(provider, stateDir), key: lockKey(provider, zone.id), zone: zone.name, timeoutMs: parseDuration(opts.lockTimeout ?? '0', '--lock-timeout') });
    try {
      const record = await rollbackZone(provider, zone, stateDir);
      process.stdout.write(`Rolled back ${zone.name} (zone ${zone.id}) to before the apply of ${record.at} (bookmark ${record.bookmark}).\n`);
    } finally {
      lock.release();
    }
    return ExitCodes.ok;
  } finally {
    await provider.close();
  }
}
