/**
 * The confirmation prompts of `apply`, `rollback`, `migrate firewall-cutover` and `engine zone delete` on a
 * terminal: Terraform's "Only 'yes' will be accepted". Without a terminal a command needs
 * `--auto-approve` (`assertCanConfirm`). Ctrl-C (or Ctrl-D) at the prompt cancels: an
 * `InterruptedError` the error boundary turns into one line (the caller's `cancelled` text) and
 * exit 130, never an AbortError with a stack trace.
 */
import { createInterface } from 'node:readline/promises';
import { ZonewallError } from '../../errors.js';
import { InterruptedError } from '../error-boundary.js';

/** Both ends of the prompt are a terminal. */
export function isInteractive(input: { isTTY?: boolean } = process.stdin, output: { isTTY?: boolean } = process.stderr): boolean {
  return input.isTTY === true && output.isTTY === true;
}

/**
 * Refuses (`ERR_USAGE`, one line) when the command would have to ask but cannot: no terminal and
 * no `--auto-approve`. `refusal` says what asks and what was left undone.
 * @example assertCanConfirm(opts.autoApprove === true, 'apply asks for confirmation on a terminal; without one, pass --auto-approve (nothing was applied)');
 */
export function assertCanConfirm(autoApprove: boolean, refusal: string): void {
  if (!autoApprove && !isInteractive()) throw new ZonewallError('ERR_USAGE', refusal);
}

/** Asks on the terminal; resolves true only for the answer `yes`. Ctrl-C or Ctrl-D throws `InterruptedError(cancelled)`. */
export async function confirm(
  question: string, cancelled = 'Apply cancelled at the prompt: nothing was applied.',
  input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr,
): Promise<boolean> {
  const rl = createInterface({ input, output });
  const cancel = new AbortController();
  rl.on('SIGINT', () => cancel.abort());
  rl.on('close', () => cancel.abort());
  try {
    const answer = await rl.question(`${question}\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: `, { signal: cancel.signal });
    return answer.trim() === 'yes';
  } catch (err) {
    if (cancel.signal.aborted) {
      output.write('\n');
      throw new InterruptedError('SIGINT', cancelled);
    }
    throw err;
  } finally {
    rl.close();
  }
}
