/**
 * Issue 32 item 1: one order of firewall rules everywhere. A zone full of ties (the same priority
 * and action, shared filters), built through the API in shuffled order: the API's list, the
 * engine's trace, `export` (the order it writes and the order the exported manifest evaluates in),
 * the offline evaluator and the conversion to custom rules all give the same order, the one
 * comparator of `src/api` (`compareFirewallRules`: priority, null last, action, ref, id).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareFirewallRules, compareCodePoints, firewallRulesInOrder } from '../../src/api/index.js';
import { validateManifestText } from '../../src/manifest/index.js';
import { convertFirewallRules } from '../../src/migrate/index.js';
import { exportManifest, renderManifestYaml } from '../../src/plan/export.js';
import { buildZoneModel, traceOffline } from '../../src/policy/index.js';
import { openEngineProvider, type EngineProvider } from '../../src/providers/engine/index.js';

let dir: string;
let provider: EngineProvider;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-one-order-'));
  provider = await openEngineProvider({ stateDir: dir });
});
afterAll(async () => {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A small deterministic generator (the same zone every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const Actions = ['log', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block'] as const;
/** Headers a request may carry; each shared filter tests one of them. */
const Marks = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Builds a zone of `n` rules over the shared filters, created in a shuffled order, through the API. */
async function tiedZone(name: string, n: number, seed: number): Promise<{ zoneId: string }> {
  const engine = provider.engine;
  const zone = await engine.createZone(name, { plan: 'enterprise' });
  const rnd = random(seed);
  const filters = await engine.dispatch({
    method: 'POST', path: `/zones/${zone.id}/filters`,
    body: Marks.map((m) => ({ expression: `any(http.request.headers["x-${m}"][*] eq "1")`, ref: `f-${m}` })),
  });
  expect(filters.body.success).toBe(true);
  const filterIds = (filters.body.result as { id: string }[]).map((f) => f.id);
  const rules = Array.from({ length: n }, (_, i) => ({
    // Refs whose alphabetical order is neither creation order nor the shuffled order.
    ref: `r${String((i * 37) % n).padStart(3, '0')}-${'zyxwv'[i % 5]}`,
    action: Actions[Math.floor(rnd() * Actions.length)]!,
    priority: [1, 2, null][Math.floor(rnd() * 3)]!,
    filter: { id: filterIds[Math.floor(rnd() * filterIds.length)]! },
  }));
  for (let i = rules.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [rules[i], rules[j]] = [rules[j]!, rules[i]!];
  }
  for (let i = 0; i < rules.length; i += 25) {
    const res = await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/firewall/rules`, body: rules.slice(i, i + 25) });
    expect(res.body.success).toBe(true);
  }
  return { zoneId: zone.id };
}

describe('one firewall rule order (issue 32 item 1)', () => {
  it('the comparator: priority, null last, action precedence, ref in code point order, then id', () => {
    const rules = [
      { ref: 'b', action: 'block', priority: 1, id: '2' },
      { ref: 'a', action: 'block', priority: 1, id: '3' },
      { ref: '', action: 'block', priority: 1, id: '9' },
      { ref: '', action: 'block', priority: 1, id: '1' },
      { ref: 'a', action: 'log', priority: 1, id: '5' },
      { ref: 'a', action: 'allow', priority: null, id: '6' },
      { ref: 'z', action: 'block', priority: 0, id: '7' },
    ];
    expect(firewallRulesInOrder(rules).map((r) => r.id)).toEqual(['7', '5', '1', '9', '3', '2', '6']);
    // U+FF5E sorts before an astral character in code point (UTF-8, SQLite BINARY) order, not in UTF-16 order.
    expect(compareCodePoints('\uff5e', '\u{1f600}')).toBeLessThan(0);
    expect(compareFirewallRules({ priority: 1, action: 'block', ref: '\uff5e' }, { priority: 1, action: 'block', ref: '\u{1f600}' })).toBeLessThan(0);
  });

  it('the API list, the trace, export, the offline evaluator and the conversion agree on a zone full of ties', async () => {
    const { zoneId } = await tiedZone('ties.example', 120, 7);
    const apiRules: { id: string; ref: string; action: string; priority: number | null; filter: { id: string; ref: string } }[] = [];
    for (let page = 1; apiRules.length < 120; page++) {
      const listed = await provider.engine.dispatch({ method: 'GET', path: `/zones/${zoneId}/firewall/rules`, query: new URLSearchParams({ page: String(page), per_page: '50' }) });
      expect(listed.body.success).toBe(true);
      apiRules.push(...(listed.body.result as typeof apiRules));
    }
    const apiOrder = apiRules.map((r) => r.ref);
    expect(apiOrder).toHaveLength(120);
    // Ties are not in creation order or in the order they were sent: the key decides.
    expect(apiOrder).toEqual(firewallRulesInOrder(apiRules).map((r) => r.ref));

    const live = await provider.readZone(zoneId);
    expect(live.firewallRules.map((r) => r.ref)).toEqual(apiOrder);

    const exported = exportManifest(live);
    expect(Object.keys(exported.document.firewall_rules ?? {})).toEqual(apiOrder);
    const loaded = validateManifestText(renderManifestYaml(exported.document, { schema: '../schemas/zone-manifest.schema.json' }), 'ties.yaml');
    expect(loaded.issues).toEqual([]);
    const desired = loaded.zone!;

    const model = buildZoneModel(desired);
    expect(model.rules.map((r) => r.rule.ref)).toEqual(apiOrder);

    const converted = convertFirewallRules({ filters: desired.filters, firewallRules: desired.firewallRules });
    expect(converted.customRules.map((r) => r.ref)).toEqual(apiOrder);

    // Requests carrying two or three marks: the live trace and the offline one credit the same rules, in list order.
    const byFilter = new Map(apiRules.map((r) => [r.id, r.filter.ref]));
    for (const marks of [['a', 'b'], ['c', 'f'], ['b', 'd', 'e'], ['a'], ['f']]) {
      const request = { host: 'ties.example', path: '/', headers: Object.fromEntries(marks.map((m) => [`x-${m}`, '1'])) };
      const live = (await provider.engine.dispatch({ method: 'POST', path: `/zones/${zoneId}/trace`, body: request })).body.result as {
        firewall_rules: { matched: { id: string; ref?: string }[]; rule: { id: string } | null };
      };
      const expected: string[] = [];
      for (const r of apiRules) {
        if (!marks.some((m) => byFilter.get(r.id) === `f-${m}`)) continue;
        expected.push(r.ref);
        if (r.action !== 'log') break;
      }
      expect(live.firewall_rules.matched.map((m) => m.ref)).toEqual(expected);
      const offline = traceOffline(model, request);
      expect(offline.firewall_rules.matched.map((m) => m.id)).toEqual(expected);
    }
  });
});
