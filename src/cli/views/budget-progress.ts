/**
 * The line that says a remote run is waiting for the API's request budget, on stderr, so a long
 * wait is never silent. On a terminal one line is rewritten in place and cleared once requests
 * flow again; otherwise (CI logs, pipes) each wait prints one line of its own.
 */
import { thousands } from '../../plan/index.js';
import type { BudgetListener, BudgetWait } from '../../providers/index.js';

/** The words of one wait. */
export function budgetWaitText(wait: BudgetWait): string {
  const seconds = Math.ceil(wait.ms / 1000);
  const rate = `${thousands(wait.limit.requests)}/${wait.limit.seconds} s`;
  return wait.reason === 'retry-after'
    ? `zonewall: the API asked to slow down (429); all requests wait ${seconds} s`
    : `zonewall: waiting ${seconds} s for the API request budget (${rate})`;
}

/** A listener writing to `out`: in place on a terminal, one line per wait otherwise. */
export function budgetProgress(out: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean }): BudgetListener {
  const tty = out.isTTY === true;
  let shown = false;
  return {
    waiting(wait) {
      out.write(tty ? `\r\x1b[K${budgetWaitText(wait)}…` : `${budgetWaitText(wait)}\n`);
      shown = tty;
    },
    resumed() {
      if (shown) out.write('\r\x1b[K');
      shown = false;
    },
  };
}
