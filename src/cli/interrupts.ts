/**
 * Ctrl-C and SIGTERM in `apply`. Before any write (reading, planning), the first signal releases
 * the held locks and exits 130/143: nothing was applied. During the writes it asks the run to stop
 * after the request in flight (never in the middle of one: the service would be left in a state
 * nobody reports), so the command can print what was applied and what was not and release its
 * locks; a second signal releases the locks and ends the process at once.
 */
import { releaseHeldLocks } from '../lock-file.js';
import { ExitCodes } from './exit-codes.js';

/** How many `catchInterrupts` are in force: while one is, it decides, not `stopOnInterrupt`. */
let catching = 0;

/**
 * Before any write (reading zones, planning): the first SIGINT/SIGTERM releases the locks held and
 * exits with 130/143 and one line, as nothing was applied. Until `dispose()`.
 */
export function stopOnInterrupt(what: string, notice: (text: string) => void = (t) => process.stderr.write(t)): { dispose(): void } {
  const on = (signal: 'SIGINT' | 'SIGTERM'): void => {
    if (catching > 0) return;
    releaseHeldLocks();
    notice(`\n${signal} received while ${what}: nothing was applied\n`);
    process.exit(signal === 'SIGTERM' ? ExitCodes.terminated : ExitCodes.interrupted);
  };
  return onSignals(on);
}

/** Listens for SIGINT and SIGTERM until `dispose()` (the default behaviour then comes back). */
function onSignals(on: (signal: 'SIGINT' | 'SIGTERM') => void): { dispose(): void } {
  const onInt = (): void => on('SIGINT');
  const onTerm = (): void => on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

/** The signal that stopped the run, once one arrived. */
export interface Interrupts {
  readonly signal: AbortSignal;
  /** Which signal arrived first, if any. */
  received(): 'SIGINT' | 'SIGTERM' | undefined;
  /** Removes the handlers (the default behaviour comes back). */
  dispose(): void;
}

/**
 * Catches SIGINT and SIGTERM until `dispose()`.
 * @example const interrupts = catchInterrupts(); try { await run({ signal: interrupts.signal }); } finally { interrupts.dispose(); }
 */
export function catchInterrupts(notice: (text: string) => void = (t) => process.stderr.write(t)): Interrupts {
  const controller = new AbortController();
  let first: 'SIGINT' | 'SIGTERM' | undefined;
  const on = (signal: 'SIGINT' | 'SIGTERM'): void => {
    if (first !== undefined) {
      releaseHeldLocks();
      notice(`\n${signal} again: stopping now; the request in flight may or may not have been applied (plan again to see)\n`);
      process.exit(signal === 'SIGTERM' ? ExitCodes.terminated : ExitCodes.interrupted);
    }
    first = signal;
    notice(`\n${signal} received: stopping after the request in flight (again to stop at once)\n`);
    controller.abort();
  };
  const listening = onSignals(on);
  catching++;
  let disposed = false;
  return {
    signal: controller.signal,
    received: () => first,
    dispose() {
      if (disposed) return;
      disposed = true;
      catching--;
      listening.dispose();
    },
  };
}
