/**
 * Priority checks (src/manifest/check-priorities.ts): equal priorities are looked for with a map
 * of the first rule per priority only when priorities do not simply grow in key order.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkPriorities } from '../../src/manifest/firewall/check-priorities.js';
import { Locator } from '../../src/manifest/locate.js';
import { readManifestYaml } from '../../src/manifest/read.js';
import { LineIndex } from '../../src/manifest/source.js';
import { Checks } from '../../src/manifest/view.js';

function check(priorities: (number | null | undefined)[]): { issues: string[]; mapped: number } {
  const rules = priorities.map((p, i) => `  r${i}:\n    action: block\n    filter: f\n${p === undefined ? '' : `    priority: ${String(p)}\n`}`);
  const text = `zone: example.com\nfirewall_rules:\n${rules.join('')}`;
  const lines = new LineIndex(text);
  const doc = readManifestYaml(text, lines);
  const checks = new Checks(new Locator('zone.yaml', doc, lines), new Set());
  const set = vi.spyOn(Map.prototype, 'set');
  checkPriorities(checks, doc.data as Record<string, unknown>);
  const mapped = set.mock.calls.length;
  set.mockRestore();
  return { issues: checks.issues.map((i) => `${i.path}: ${i.message.slice(0, 58)}`), mapped };
}

afterEach(() => vi.restoreAllMocks());

describe('priority checks', () => {
  it('need no map of priorities when they grow in key order', () => {
    expect(check([undefined, undefined, 10, undefined, null, null])).toEqual({ issues: [], mapped: 0 });
  });

  it('find equal priorities when they do not grow', () => {
    const { issues, mapped } = check([undefined, 5, undefined, 6, 3, undefined, 4]);
    expect(mapped).toBeGreaterThan(0);
    expect(issues).toEqual([
      'firewall_rules.r3: has priority 6, which firewall_rules.r2 (line 10) also get',
      'firewall_rules.r6: has priority 4, which firewall_rules.r5 (line 21) also get',
    ]);
    // Explicit equal priorities are allowed (the service orders them by action).
    expect(check([5, 5, 7])).toMatchObject({ issues: [] });
  });
});
