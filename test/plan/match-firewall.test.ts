import { describe, expect, it } from 'vitest';
import { createCanonicalizer, sameMeaning, type Canonicalizer } from '../../src/plan/canonical.js';
import { matchFirewall } from '../../src/plan/firewall/match.js';
import { diffZone, noOpChange, type LiveFilter } from '../../src/plan/index.js';
import { dFilter, desired, dRule, hex, lFilter, live, lRule } from './fixtures.js';

const ids = (list: readonly ({ id: string } | undefined)[]) => list.map((x) => x?.id);
const refuses: Canonicalizer = (source) => { throw new Error(`canonicalised ${source}`); };

describe('matchFirewall: positions and lazy indexes', () => {
  it('pairs rules by position while the refs agree, then by ref (first unclaimed), then renamed_from', () => {
    const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const live = [
      lRule('l0', f, { ref: 'r0' }), lRule('l1', f, { ref: 'r1' }), lRule('extra', f, { ref: 'gone' }),
      lRule('l2', f, { ref: 'r2' }), lRule('old', f, { ref: 'old3' }), lRule('dup', f, { ref: 'r1' }),
    ];
    const want = [dRule('r0', 'f'), dRule('r1', 'f'), dRule('r2', 'f'), dRule('r3', 'f', { renamedFrom: 'old3' })];
    const m = matchFirewall([dFilter('f', 'ip.src eq 192.0.2.1')], want, [f], live, createCanonicalizer(), false);
    expect(ids(m.rules)).toEqual([hex('l0'), hex('l1'), hex('l2'), hex('old')]);
    expect([...m.claimedRules]).toEqual([1, 1, 0, 1, 1, 0]);
  });

  it('adds an embedded filter once unless the list holds its id, whatever ref it carries', () => {
    const a = lFilter('a', 'ip.src eq 192.0.2.1', { ref: 'a' });
    const b = lFilter('b', 'ip.src eq 192.0.2.2', { ref: 'b' });
    const sameRefOtherId: LiveFilter = { id: hex('c'), expression: 'ip.src eq 192.0.2.3', paused: false, ref: 'a' };
    const noRef: LiveFilter = { id: hex('d'), expression: 'ip.src eq 192.0.2.4', paused: false };
    const rules = [
      lRule('r1', { ...a }), lRule('r2', sameRefOtherId), lRule('r3', { ...b, ref: 'renamed-elsewhere' }),
      lRule('r4', noRef), lRule('r5', { ...noRef }), { ...lRule('r6', a), filter: { id: hex('x'), deleted: true as const } },
    ];
    const m = matchFirewall([], [], [a, b], rules, createCanonicalizer(), false);
    expect(ids(m.liveFilters)).toEqual([hex('a'), hex('b'), hex('c'), hex('d')]);
    expect(m.liveFilter(hex('c'))).toBe(sameRefOtherId);
    expect(m.liveFilter(hex('b'))).toBe(b);
    expect(m.liveFilter(hex('x'))).toBeUndefined();
  });

  it('finds which desired filter claimed a live filter through the ref the rule embeds', () => {
    const a = lFilter('a', 'ip.src eq 192.0.2.1', { ref: 'a' });
    const b = lFilter('b', 'ip.src eq 192.0.2.2', { ref: 'b' });
    const m = matchFirewall([dFilter('b', 'ip.src eq 192.0.2.2'), dFilter('a', 'ip.src eq 192.0.2.1')], [], [a, b], [], createCanonicalizer(), false);
    expect(m.claimantOf(hex('a'), 'a')).toBe(1);
    expect(m.claimantOf(hex('b'), 'b')).toBe(0);
    expect(m.claimantOf(hex('a'), 'b')).toBe(-1);
    expect(m.claimantOf(hex('a'), undefined)).toBe(-1);
  });

  it('plans a zone whose rules are listed in another order than the manifest the same way', () => {
    const fs = ['a', 'b', 'c'].map((r, i) => lFilter(r, `ip.src eq 192.0.2.${i + 1}`, { ref: r }));
    const rules = fs.map((f, i) => lRule(`r${i}`, f, { ref: `r${i}`, priority: i + 1 }));
    const want = desired({
      filters: fs.map((f) => dFilter(f.ref!, f.expression)),
      firewallRules: fs.map((f, i) => dRule(`r${i}`, f.ref!, { priority: i + 1 })),
    });
    const inOrder = diffZone(want, live({ filters: fs, firewallRules: rules }));
    const reversed = diffZone(want, live({ filters: [...fs].reverse(), firewallRules: [...rules].reverse() }));
    expect(inOrder.summary).toMatchObject({ unchanged: 6, change: 0 });
    expect(reversed.changes).toEqual(inOrder.changes);
  });
});

describe('canonical: the no-op fast path', () => {
  it('seeds the memo at the first call, not when made', () => {
    let read = 0;
    function* seed() { read++; yield 'ip.src eq 192.0.2.1'; }
    const c = createCanonicalizer(seed());
    expect(read).toBe(0);
    expect(c('ip.src eq 192.0.2.1')).toEqual({ ok: true, canonical: 'ip.src eq 192.0.2.1', key: 'ip.src eq 192.0.2.1' });
    expect(read).toBe(1);
  });

  it('takes a live text equal to the desired one as the same without canonicalising it', () => {
    expect(sameMeaning(refuses, 'ip.src eq 192.0.2.1', 'ip.src eq 192.0.2.1')).toBe(true);
    // Set literals too (issue 35: a quarter of a realistic zone's filters were parsed again per plan).
    expect(sameMeaning(refuses, 'ip.src in {192.0.2.1 10.0.0.0/8}', 'ip.src in {192.0.2.1 10.0.0.0/8}')).toBe(true);
    // Different texts are compared by their keys.
    expect(() => sameMeaning(refuses, 'ip.src in {10.0.0.0/8 192.0.2.1}', 'ip.src in {192.0.2.1 10.0.0.0/8}')).toThrow('canonicalised');
  });

  it('seeds texts with a set literal by the key the manifest check computed, so they are not parsed again', async () => {
    const { validateManifestText, checkedKeyOf } = await import('../../src/manifest/index.js');
    const { canonicalForms } = await import('../../src/expr/index.js');
    const { mixedExpression } = await import('../../support/realistic-zone.js');
    const sources = Array.from({ length: 16 }, (_, i) => mixedExpression(i));
    const yaml = ['zone: keys.example.com', 'plan: enterprise', 'filters:', ...sources.flatMap((e, i) => [`  f${i}:`, `    expression: '${e}'`])].join('\n');
    const result = validateManifestText(`${yaml}\n`, 'keys.yaml');
    expect(result.issues).toEqual([]);
    const withSets = result.zone!.filters.map((f) => f.expression).filter((e) => e.includes('{'));
    expect(withSets.length).toBe(4);
    for (const text of withSets) expect(checkedKeyOf(text)).toBe(canonicalForms(text).key);
    // Seeded from `keyOf`, not parsed: a key no parse would give is what comes back.
    const c = createCanonicalizer(withSets, () => 'from the check');
    for (const text of withSets) expect(c(text)).toEqual({ ok: true, canonical: text, key: 'from the check' });
  });

  it('shares one frozen empty list between no-op changes', () => {
    const a = noOpChange('filter', 'a', hex('a'));
    const b = noOpChange('firewall_rule', 'b', undefined);
    expect(a.writes).toBe(b.changed);
    expect(Object.isFrozen(a.writes)).toBe(true);
    expect(() => a.changed.push('x')).toThrow(TypeError);
    expect(b).toEqual({ kind: 'firewall_rule', action: 'no-op', reason: 'in-sync', ref: 'b', before: null, after: null, changed: [], writes: [] });
    expect(Object.keys(a)).toEqual(['kind', 'action', 'reason', 'ref', 'id', 'before', 'after', 'changed', 'writes']);
  });
});
