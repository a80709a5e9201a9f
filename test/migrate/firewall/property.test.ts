/**
 * The conversion against the engine's own evaluator, on random zones (fast-check): a few shared
 * filters whose expressions overlap (so several rules match one request and their order decides),
 * rules with random actions, priorities that tie or are null, products and pauses. For every zone,
 * the proof of the converted manifest finds no difference; and the same zone with its rules' order
 * taken literally (key order, priorities ignored) is caught whenever that order decides otherwise.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateManifestText, type DesiredZone } from '../../../src/manifest/index.js';
import { upgradeFirewallManifest } from '../../../src/migrate/index.js';
import { proveEquivalence } from '../../../src/policy/index.js';

const Filters = [
  'starts_with(http.request.uri.path, "/a")',
  'http.request.uri.path eq "/a/b"',
  'ip.src in {192.0.2.0/28}',
  'ip.src eq 192.0.2.5 or http.request.method eq "POST"',
  'http.request.uri.path wildcard "/a/*" and not ip.src in {192.0.2.0/30}',
  'http.request.headers["x-key"][0] eq "k1"',
];
const Actions = ['log', 'bypass', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block'] as const;
const Products = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'] as const;

const rule = fc.record({
  action: fc.constantFrom(...Actions),
  filter: fc.nat({ max: Filters.length - 1 }),
  priority: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  paused: fc.boolean(),
  products: fc.subarray([...Products], { minLength: 1 }),
});

type Rule = typeof rule extends fc.Arbitrary<infer T> ? T : never;

function manifest(rules: Rule[], pausedFilter: number | null): string {
  const lines = ['zone: prop.example.com', 'plan: enterprise', 'filters:'];
  Filters.forEach((e, i) => lines.push(`  f${i}:`, `    expression: '${e}'`, ...(i === pausedFilter ? ['    paused: true'] : [])));
  lines.push('firewall_rules:');
  rules.forEach((r, i) => {
    lines.push(`  r${i}:`, `    action: ${r.action}`, `    filter: f${r.filter}`, `    priority: ${r.priority ?? 'null'}`);
    if (r.action === 'bypass') lines.push(`    products: [${r.products.join(', ')}]`);
    if (r.paused) lines.push('    paused: true');
  });
  return `${lines.join('\n')}\n`;
}

function load(text: string): DesiredZone {
  const loaded = validateManifestText(text, 'prop.yaml');
  expect(loaded.issues).toEqual([]);
  return loaded.zone!;
}

describe('the conversion on random zones', () => {
  it('is proved equivalent every time', () => {
    fc.assert(fc.property(fc.array(rule, { minLength: 1, maxLength: 10 }), fc.option(fc.nat({ max: Filters.length - 1 }), { nil: null }), (rules, pausedFilter) => {
      const text = manifest(rules, pausedFilter);
      const before = load(text);
      const up = upgradeFirewallManifest('prop.yaml', text, before);
      expect(up.conversion.findings.filter((f) => f.kind === 'cannot-carry')).toEqual([]);
      expect(proveEquivalence({ before, after: up.after!, renames: up.renames }).differences).toEqual([]);
    }), { numRuns: 60, seed: 16 });
  });

  it('catches a conversion that ignores priorities whenever the order decides', () => {
    let caught = 0;
    fc.assert(fc.property(fc.array(rule, { minLength: 2, maxLength: 8 }), (rules) => {
      const text = manifest(rules, null);
      const before = load(text);
      const up = upgradeFirewallManifest('prop.yaml', text, before);
      // The broken conversion: the converted rules in the firewall rules' key order.
      const keyOrder = new Map(before.firewallRules.map((r, i) => [r.ref, i]));
      const naive = [...up.after!.customRules!].sort((a, b) => keyOrder.get(a.ref)! - keyOrder.get(b.ref)!);
      const proof = proveEquivalence({ before, after: { ...up.after!, customRules: naive }, renames: up.renames });
      // Where both orders give every request the same verdict nothing can be caught; elsewhere it must be.
      const correct = proveEquivalence({ before: { ...up.after!, customRules: naive }, after: up.after!, renames: up.renames });
      expect(proof.differences.length > 0).toBe(correct.differences.length > 0);
      if (proof.differences.length > 0) caught++;
    }), { numRuns: 60, seed: 16 });
    // The random zones do include orders that matter.
    expect(caught).toBeGreaterThan(5);
  });
});
