import { describe, expect, it } from 'vitest';
import { checkResult, compatibilityBlockers, configurationBlockers, rulesToMigrate, type FirewallRuleLike } from '../../../src/engine/migration/check.js';

function rule(i: number, over: Partial<FirewallRuleLike> = {}): FirewallRuleLike {
  return { id: `r${i}`, action: 'bypass', priority: null, paused: false, products: ['waf'], expression: `ip.src eq 192.0.2.${i % 250}`, ...over };
}

describe('configuration blockers', () => {
  it('are empty for a plain zone', () => {
    expect(configurationBlockers(0, [rule(1, { action: 'block', products: [] })])).toEqual([]);
  });

  it('name URI-based overrides and the delete operation', () => {
    const [b] = configurationBlockers(2, []);
    expect(b).toMatchObject({ code: 11001 });
    expect(b!.message).toContain('2 URI-based WAF overrides');
    expect(b!.message).toContain('DELETE /zones/{zone_id}/firewall/waf/overrides/{override_id}');
  });

  it('count only firewall rules that bypass WAF managed rules, paused ones included', () => {
    const rules = [rule(1), rule(2, { paused: true }), rule(3, { products: ['uaBlock'] }), rule(4, { action: 'block', products: [] })];
    expect(rulesToMigrate(rules).map((r) => r.id)).toEqual(['r1', 'r2']);
  });

  it('allow 200 firewall rules to migrate and refuse 201', () => {
    const two00 = Array.from({ length: 200 }, (_, i) => rule(i));
    expect(configurationBlockers(0, two00)).toEqual([]);
    const [b] = configurationBlockers(0, [...two00, rule(200)]);
    expect(b).toMatchObject({ code: 11002 });
    expect(b!.message).toContain('201 firewall rules');
    expect(b!.message).toContain('at most 200');
  });

  it('measure expressions in UTF-8 bytes against 4 KB', () => {
    const ascii = `http.request.uri.path contains "${'a'.repeat(4096 - 33)}"`;
    expect(Buffer.byteLength(ascii)).toBe(4096);
    expect(configurationBlockers(0, [rule(1, { expression: ascii })])).toEqual([]);
    const wide = `http.request.uri.path contains "${'é'.repeat(2100)}"`;
    expect(wide.length).toBeLessThanOrEqual(4096);
    const [b] = configurationBlockers(0, [rule(7, { expression: wide })]);
    expect(b).toMatchObject({ code: 11003 });
    expect(b!.message).toContain('firewall rule r7');
  });

  it('ignore a long expression of a rule that is not migrated', () => {
    const long = `http.request.uri.path contains "${'é'.repeat(2100)}"`;
    expect(configurationBlockers(0, [rule(1, { action: 'block', products: [], expression: long })])).toEqual([]);
  });
});

describe('the check result', () => {
  it('is compatible with migration_state start when nothing blocks', () => {
    expect(checkResult('previous_only', [], 2)).toEqual({ compatible: true, migration_state: 'start', phase: 2, reasons: [] });
  });

  it('is not compatible, with the reasons in the result', () => {
    const blockers = configurationBlockers(1, []);
    expect(checkResult('both', blockers, 1)).toEqual({ compatible: false, migration_state: 'validation', phase: 1, reasons: [{ code: 11001, message: blockers[0]!.message }] });
  });

  it('says a migrated or Free zone has nothing to migrate', () => {
    expect(compatibilityBlockers('new_only', 'enterprise', [])[0]!.code).toBe(11005);
    expect(compatibilityBlockers('previous_only', 'free', [])[0]!.code).toBe(11006);
  });
});
