/**
 * Whether to color output: only on a terminal, never with `NO_COLOR` set (https://no-color.org),
 * never with `--no-color`.
 */
import { createStyle, type Style } from '../../plan/index.js';

/** The style for a stream. */
export function styleFor(stream: { isTTY?: boolean }, flags: { color?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return createStyle(stream.isTTY === true && !noColor && flags.color !== false);
}
