/**
 * The confirmation prompt of `apply` on a terminal: Terraform's "Only 'yes' will be accepted".
 * Ctrl-C (or Ctrl-D) at the prompt cancels: an `InterruptedError` the error boundary turns into
 * one line and exit 130, never an AbortError with a stack trace.
 */
import { createInterface } from 'node:readline/promises';
import { InterruptedError } from '../error-boundary.js';

/** Asks on the terminal; resolves true only for the answer `yes`. */
export async function confirm(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<boolean> {
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
      throw new InterruptedError('SIGINT', 'Apply cancelled at the prompt: nothing was applied.');
    }
    throw err;
  } finally {
    rl.close();
  }
}
