/**
 * The confirmation prompt of `apply` on a terminal: Terraform's "Only 'yes' will be accepted".
 */
import { createInterface } from 'node:readline/promises';

/** Asks on the terminal; resolves true only for the answer `yes`. */
export async function confirm(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<boolean> {
  const rl = createInterface({ input, output });
  try {
    const answer = await rl.question(`${question}\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: `);
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}
