/** Parses CLI durations: `0`, `500ms`, `30s`, `2m` (a bare number is seconds). */
import { ZonewallError } from '../../errors.js';

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a duration such as `30s`; throws ERR_USAGE naming the option otherwise. */
export function parseDuration(text: string, option: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (m === null) throw new ZonewallError('ERR_USAGE', `${option} must be a duration such as 0, 500ms, 30s or 2m, got ${JSON.stringify(text)}`);
  return Math.round(Number(m[1]) * units[m[2] ?? 's']!);
}
