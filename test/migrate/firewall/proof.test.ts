/**
 * The upgrade of a generated zone of 200 firewall rules over 150 shared filters (every action,
 * priorities that tie, no priority, paused rules and filters): the conversion, the rewritten
 * manifest, and its proof, which finds no difference; then the proof against deliberately broken
 * conversions, each of which it must report (the proof can fail).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DesiredCustomRule, DesiredZone } from '../../../src/manifest/index.js';
import { validateManifestText } from '../../../src/manifest/index.js';
import { upgradeFirewallManifest, type FirewallUpgrade } from '../../../src/migrate/index.js';
import { buildZoneModel, evaluateOffline, generateCorpus, proveEquivalence, withZoneHost } from '../../../src/policy/index.js';
import { generatedZone } from '../../../support/generated-zone.js';

let before: DesiredZone;
let up: FirewallUpgrade;
let after: DesiredZone;

beforeAll(() => {
  const text = generatedZone({ rules: 200, filters: 150 });
  const loaded = validateManifestText(text, 'zone.yaml');
  expect(loaded.issues).toEqual([]);
  before = loaded.zone!;
  up = upgradeFirewallManifest('zone.yaml', text, before);
  after = up.after!;
});

describe('a zone of 200 firewall rules over 150 shared filters', () => {
  it('is the zone the test means: every action, shared filters, ties, no priority, paused rules and filters', () => {
    expect(before.firewallRules).toHaveLength(200);
    expect(before.filters).toHaveLength(150);
    expect(new Set(before.firewallRules.map((r) => r.action))).toEqual(new Set(['log', 'bypass', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block']));
    const uses = new Map<string, number>();
    for (const r of before.firewallRules) uses.set(r.filterRef, (uses.get(r.filterRef) ?? 0) + 1);
    expect([...uses.values()].filter((n) => n > 1).length).toBeGreaterThan(20);
    const priorities = before.firewallRules.map((r) => r.priority);
    expect(priorities).toContain(null);
    expect(new Set(priorities).size).toBeLessThan(priorities.length);
    expect(before.firewallRules.some((r) => r.paused)).toBe(true);
    expect(before.filters.some((f) => f.paused)).toBe(true);
  });

  it('converts into 200 custom rules, with no finding that blocks the write', () => {
    expect(up.conversion.findings.filter((f) => f.kind === 'cannot-carry')).toEqual([]);
    expect(after.filters).toEqual([]);
    expect(after.firewallRules).toEqual([]);
    expect(after.customRules).toHaveLength(200);
    // A rule on a shared filter carries its own copy of the expression.
    const byRef = new Map(before.filters.map((f) => [f.ref, f.expression]));
    for (const r of after.customRules!) expect(r.expression).toBe(byRef.get(up.conversion.sources.get(r.ref)!.filterRef));
  });

  it('proves the rewrite: no generated request gets a different verdict', () => {
    const proof = proveEquivalence({ before, after, renames: up.renames });
    expect(proof.expressions).toBe(150);
    expect(proof.generated).toBeGreaterThan(1000);
    expect(proof.differences).toEqual([]);
  });
});

/** The converted rules with one of them changed. */
function mutate(index: number, change: (r: DesiredCustomRule) => DesiredCustomRule): DesiredZone {
  return { ...after, customRules: after.customRules!.map((r, i) => (i === index ? change(r) : r)) };
}

/** Indexes of converted rules that decide some generated request (the ones a mutation can show on). */
function decidingRules(): Map<string, number> {
  const model = buildZoneModel(after);
  const deciding = new Map<string, number>();
  for (const { request } of generateCorpus(after.customRules!.map((r) => r.expression), 'http_request_firewall_custom')) {
    const v = evaluateOffline(model, withZoneHost(request, after.zone));
    if (v.rule?.startsWith('custom_rules.')) deciding.set(v.rule.slice('custom_rules.'.length), 0);
  }
  after.customRules!.forEach((r, i) => { if (deciding.has(r.ref)) deciding.set(r.ref, i); });
  return deciding;
}

describe('the proof catches a broken conversion', () => {
  const cases: [string, (r: DesiredCustomRule) => boolean, (r: DesiredCustomRule) => DesiredCustomRule][] = [
    ['a block that became a challenge', (r) => r.action === 'block', (r) => ({ ...r, action: 'challenge' })],
    ['a narrowed expression', (r) => r.action === 'managed_challenge', (r) => ({ ...r, expression: `(${r.expression}) and http.request.uri.path eq "/never"` })],
    ['a disabled rule', (r) => r.action === 'js_challenge', (r) => ({ ...r, enabled: false })],
  ];
  it.each(cases)('%s', (_name, pick, change) => {
    const deciding = decidingRules();
    const index = after.customRules!.findIndex((r) => pick(r) && deciding.has(r.ref));
    expect(index).toBeGreaterThanOrEqual(0);
    const ref = after.customRules![index]!.ref;
    const proof = proveEquivalence({ before, after: mutate(index, change), renames: up.renames });
    expect(proof.differences.length).toBeGreaterThan(0);
    // The differences name the broken rule (the old side by its firewall rule key, the same here).
    const names = proof.differences.flatMap((d) => [d.before.rule, d.after.rule, ...d.before.matched, ...d.after.matched]);
    expect(names.some((n) => n === `custom_rules.${ref}` || n === `firewall_rules.${ref}`)).toBe(true);
  });

  it('an allow turned into a log (the remaining rules run again)', () => {
    const deciding = decidingRules();
    const skip = after.customRules!.findIndex((r, i) => r.actionParameters?.ruleset === 'current' && r.enabled
      && after.customRules!.slice(i + 1).some((later) => deciding.has(later.ref)));
    const proof = proveEquivalence({ before, after: mutate(skip, (r) => ({ ...r, action: 'log', actionParameters: undefined, logging: undefined })), renames: up.renames });
    expect(proof.differences.map((d) => d.before.rule)).toContain(`firewall_rules.${after.customRules![skip]!.ref}`);
  });

  it('a bypass that lost the product waf, when a request meets the previous WAF', () => {
    const text = 'zone: example.com\nwaf_migration: none\nfirewall_rules:\n  trusted-scanner:\n    action: bypass\n    products: [waf]\n    filter: { expression: \'http.user_agent contains "sqlmap"\' }\n';
    const z = validateManifestText(text, 'z.yaml').zone!;
    const u = upgradeFirewallManifest('z.yaml', text, z);
    expect(proveEquivalence({ before: z, after: u.after! }).differences).toEqual([]);
    const broken = { ...u.after!, customRules: [{ ...u.after!.customRules![0]!, actionParameters: { products: ['zoneLockdown'] } }] };
    const proof = proveEquivalence({ before: z, after: broken });
    expect(proof.differences[0]).toMatchObject({ before: { action: null }, after: { decided_by: 'previous_waf' } });
  });

  it('two rules put in the wrong order', () => {
    const rules = after.customRules!;
    // Two enabled rules on one filter with different terminating actions: their order decides.
    const terminating = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
    const deciding = decidingRules();
    let pair: [number, number] | undefined;
    for (let i = 0; i < rules.length && pair === undefined; i++) {
      for (let j = i + 1; j < rules.length; j++) {
        const a = rules[i]!;
        const b = rules[j]!;
        if (a.enabled && b.enabled && a.expression === b.expression && terminating.has(a.action) && terminating.has(b.action) && a.action !== b.action && deciding.has(a.ref)) { pair = [i, j]; break; }
      }
    }
    expect(pair).toBeDefined();
    const [i, j] = pair!;
    const swapped = [...rules];
    [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
    const proof = proveEquivalence({ before, after: { ...after, customRules: swapped }, renames: up.renames });
    expect(proof.differences.length).toBeGreaterThan(0);
  });
});

describe('two rules on different fields', () => {
  // An office IP range allowed, an admin path blocked: only an office request to the admin path
  // tells their order apart, and neither expression's own probes make one.
  const text = `zone: fields.example.com
firewall_rules:
  office: { action: allow, filter: { expression: 'ip.src in {10.1.0.0/16}' }, priority: 1 }
  admin: { action: block, filter: { expression: 'http.request.uri.path eq "/admin"' }, priority: 2 }
`;
  it('is proved equivalent when converted, and caught when the two are put in the wrong order', () => {
    const z = validateManifestText(text, 'z.yaml').zone!;
    const u = upgradeFirewallManifest('z.yaml', text, z);
    expect(proveEquivalence({ before: z, after: u.after!, renames: u.renames }).differences).toEqual([]);
    const swapped = { ...u.after!, customRules: [...u.after!.customRules!].reverse() };
    const proof = proveEquivalence({ before: z, after: swapped, renames: u.renames });
    expect(proof.differences.map((d) => [d.before.rule, d.after.rule])).toContainEqual(['firewall_rules.office', 'custom_rules.admin']);
    const found = proof.differences.find((d) => d.after.rule === 'custom_rules.admin')!;
    expect(found.request).toMatchObject({ path: '/admin' });
    expect(found.request.ip).toMatch(/^10\.1\./);
  });

  it('catches an allow converted into a rule that lets the request go on, the two rules in the same order', () => {
    const z = validateManifestText(text, 'z.yaml').zone!;
    const u = upgradeFirewallManifest('z.yaml', text, z);
    const logged = { ...u.after!, customRules: u.after!.customRules!.map((r) => (r.ref === 'office' ? { ...r, action: 'log' as const, actionParameters: undefined } : r)) };
    const proof = proveEquivalence({ before: z, after: logged, renames: u.renames });
    const found = proof.differences.find((d) => d.after.rule === 'custom_rules.admin');
    expect([found?.before.action, found?.after.action]).toEqual(['allow', 'block']);
    expect(found?.request).toMatchObject({ path: '/admin' });
  });

  it('tries pairs for reordered rules and for rules that let the request go on only, not every two rules', () => {
    const rules = Array.from({ length: 60 }, (_, i) => `  r${i}: { action: block, filter: { expression: 'http.request.uri.path eq "/p${i}"' }, priority: ${i + 1} }`);
    const big = `zone: many.example.com\nfirewall_rules:\n${rules.join('\n')}\n`;
    const z = validateManifestText(big, 'z.yaml').zone!;
    const u = upgradeFirewallManifest('z.yaml', big, z);
    const proof = proveEquivalence({ before: z, after: u.after!, renames: u.renames });
    expect(proof.differences).toEqual([]);
    // Each expression's own requests only: 60 blocks in the same order need no pair (1,770 of them).
    expect(proof.generated).toBeLessThan(60 * 6);
  });
});

describe('rules on a named list', () => {
  // The office is an account list: only its members tell an allow of the office from a block of it.
  const text = `zone: lists.example.com
firewall_rules:
  office: { action: allow, filter: { expression: 'ip.src in $office' }, priority: 1 }
  admin: { action: block, filter: { expression: 'http.request.uri.path eq "/admin"' }, priority: 2 }
`;
  const lists = { office: ['10.1.0.0/16', '198.51.100.7'] };
  it('tries the list\'s members, so a broken conversion of the list\'s rule is caught', () => {
    const z = validateManifestText(text, 'z.yaml').zone!;
    const u = upgradeFirewallManifest('z.yaml', text, z);
    expect(proveEquivalence({ before: z, after: u.after!, renames: u.renames, lists }).differences).toEqual([]);
    const broken = { ...u.after!, customRules: u.after!.customRules!.map((r) => (r.ref === 'office' ? { ...r, action: 'block' as const, actionParameters: undefined, logging: undefined } : r)) };
    const input: Parameters<typeof proveEquivalence>[0] = { before: z, after: broken, renames: u.renames, lists };
    const proof = proveEquivalence(input);
    const ips = proof.differences.filter((d) => d.before.action === 'allow' && d.after.action === 'block').map((d) => d.request.ip);
    expect(ips).toContain('198.51.100.7');
    expect(ips).toContain('10.1.255.255');
  });
});

describe('a zone with custom rules already', () => {
  it('runs the converted rules first, so an allow still skips the custom rules that were there', () => {
    const text = `zone: both.example.com
firewall_rules:
  office: { action: allow, filter: { expression: 'ip.src in {192.0.2.0/24}' } }
  api: { action: log, filter: { expression: 'starts_with(http.request.uri.path, "/api")' } }
custom_rules:
  api:
    action: block
    expression: starts_with(http.request.uri.path, "/api/admin")
`;
    const before = validateManifestText(text, 'both.yaml').zone!;
    const up = upgradeFirewallManifest('both.yaml', text, before);
    expect(up.after!.customRules!.map((r) => r.ref)).toEqual(['office', 'api-2', 'api']);
    expect([...up.renames]).toEqual([['api', 'api-2']]);
    expect(proveEquivalence({ before, after: up.after!, renames: up.renames }).differences).toEqual([]);
    // Put last instead, the allow no longer protects the office from the block.
    const last = { ...up.after!, customRules: [...up.after!.customRules!.slice(2), ...up.after!.customRules!.slice(0, 2)] };
    const proof = proveEquivalence({ before, after: last, renames: up.renames });
    expect(proof.differences.some((d) => d.before.action === 'allow' && d.after.action === 'block')).toBe(true);
  });
});
