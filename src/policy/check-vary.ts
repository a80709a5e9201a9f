/**
 * The checks of a burst's `vary` values that JSON Schema cannot make, the same as a case's own
 * request gets (`check-request.ts`): every `ip` an address, every `path` starting with `/`, no
 * empty `host`. Without them a bad value passed loading and stopped the run half-way with a line
 * that said neither the file nor the case. Each list reports its first bad value (and how many
 * more), so a list of 30,000 values cannot bury the output.
 */
import { parseIp } from '../expr/index.js';
import type { DocPath, ManifestIssue } from '../manifest/index.js';
import { varyValues } from './burst.js';
import type { PositionedYaml } from './yaml.js';

/** What a value of each list must be, or undefined when it is fine. */
const Checks: Record<'ip' | 'path' | 'host', (value: string) => string | undefined> = {
  ip: (v) => (parseIp(v.trim()) === undefined ? 'must be an IPv4 or IPv6 address' : undefined),
  path: (v) => (v.startsWith('/') ? undefined : 'must start with `/` (e.g. `/admin`)'),
  host: (v) => (v === '' ? 'must not be empty' : undefined),
};

/** Issues of the `vary` of the burst at `burstPath` (already valid against the schema). */
export function checkVary(burst: unknown, burstPath: DocPath, doc: PositionedYaml): ManifestIssue[] {
  if (typeof burst !== 'object' || burst === null) return [];
  const vary = (burst as { vary?: unknown }).vary;
  if (typeof vary !== 'object' || vary === null) return [];
  const issues: ManifestIssue[] = [];
  for (const key of ['ip', 'path', 'host'] as const) {
    const raw = (vary as Record<string, unknown>)[key];
    const values = varyValues(raw);
    if (values === undefined) continue;
    const bad: number[] = [];
    values.forEach((v, i) => { if (typeof v === 'string' && Checks[key](v) !== undefined) bad.push(i); });
    if (bad.length === 0) continue;
    const first = bad[0]!;
    const more = bad.length > 1 ? `; ${bad.length - 1} more value${bad.length > 2 ? 's' : ''} of this list too` : '';
    const got = `(got ${JSON.stringify(values[first])}${more})`;
    const path = [...burstPath, 'vary', key];
    issues.push(Array.isArray(raw)
      ? doc.issue([...path, first], `${Checks[key](values[first]!)!} ${got}`)
      : doc.issue(path, `line ${first + 1} of the list: ${Checks[key](values[first]!)!} ${got}`));
  }
  return issues;
}
