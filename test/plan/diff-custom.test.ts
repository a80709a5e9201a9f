import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { diffZone, planDocument, planFromJson, planToJson, renderPlanText, type CustomRulesWrite, type Plan } from '../../src/plan/index.js';
import { customEntry, dCustom, desired, hex, lCustom, live } from './fixtures.js';
import { customWriteOf, entrypointOf } from './fixtures.js';

const rules = ['a', 'b', 'c', 'd', 'e'].map((r, i) => lCustom(r, `http.request.uri.path eq "/${r}" and ip.src ne 192.0.2.${i}`));
const wantedOf = (refs: string[]) => refs.map((r) => dCustom(r, rules.find((l) => l.ref === r)!.expression));
const planOf = (want: ReturnType<typeof dCustom>[], liveRules = rules, prune = false): Plan =>
  diffZone(desired({ customRules: want }), live({ customEntrypoint: customEntry(liveRules) }), { prune });
const active = (p: Plan) => p.changes.filter((c) => c.action !== 'no-op');
const ops = (w: CustomRulesWrite | null) => (w?.strategy === 'rules' ? w.ops : []);

describe('custom rules plan', () => {
  it('leaves the phase alone without a custom_rules section', () => {
    const p = diffZone(desired(), live({ customEntrypoint: customEntry(rules) }));
    expect(p.changes).toEqual([]);
    expect(customWriteOf(p)).toBeNull();
    expect(p.unmanaged).toEqual([]);
  });

  it('plans nothing when only notation differs (spacing, operator spelling, defaults written out)', () => {
    const want = wantedOf(['a', 'b', 'c', 'd', 'e']);
    const liveRules = rules.map((r) => ({ ...r, expression: r.expression.replace(' eq ', ' == ').replace(' and ', '   &&  '), description: undefined }));
    const p = planOf(want, liveRules);
    expect(active(p)).toEqual([]);
    expect(customWriteOf(p)).toBeNull();
    expect(p.summary.unchanged).toBe(5);
  });

  it('creates the entry point with one PUT on a zone without one', () => {
    const p = diffZone(desired({ customRules: [dCustom('x', 'ip.src eq 192.0.2.1'), dCustom('y', 'true', { action: 'managed_challenge' })] }), live({ customEntrypoint: null }));
    expect(active(p).map((c) => [c.ref, c.action])).toEqual([['x', 'create'], ['y', 'create']]);
    expect(customWriteOf(p)).toMatchObject({ strategy: 'put', body: { rules: [{ ref: 'x', action: 'block' }, { ref: 'y', action: 'managed_challenge' }] } });
    expect(p.calls.phases).toEqual([{ phase: 'custom_rules', objects: 1, requests: 1 }]);
  });

  it('moves only the rules that must move, keeps every id, and shows position old -> new', () => {
    const p = planOf(wantedOf(['e', 'a', 'b', 'c', 'd']));
    expect(active(p).map((c) => [c.ref, c.reason, c.before?.position, c.after?.position])).toEqual([['e', 'reordered', 5, 1]]);
    expect(ops(customWriteOf(p))).toEqual([{ op: 'update', ref: 'e', id: hex('e'), position: { first: true } }]);
    expect(renderPlanText(p)).toContain('position 5 -> 1');
    expect(p.summary).toMatchObject({ add: 0, change: 1, destroy: 0 });
  });

  it('edits a rule in place with a word diff of its expression, keeping its id', () => {
    const want = wantedOf(['a', 'b', 'c', 'd', 'e']);
    want[1] = dCustom('b', 'http.request.uri.path eq "/admin" and ip.src ne 192.0.2.1', { action: 'js_challenge' });
    const p = planOf(want);
    const change = active(p)[0]!;
    expect([change.ref, change.id, change.changed]).toEqual(['b', hex('b'), ['action', 'expression']]);
    expect(ops(customWriteOf(p))).toEqual([{ op: 'update', ref: 'b', id: hex('b'), body: expect.objectContaining({ ref: 'b', action: 'js_challenge' }) }]);
    expect(renderPlanText(p)).toContain('"/[-b-]{+admin+}"');
  });

  it('adds, deletes and moves with single-rule calls for a few changes, with positions after existing or new rules', () => {
    const want = [dCustom('new', 'ip.src eq 198.51.100.7'), ...wantedOf(['a', 'c', 'd', 'e'])];
    const p = planOf(want);
    expect(active(p).map((c) => [c.ref, c.action])).toEqual([['new', 'create'], ['b', 'delete']]);
    expect(ops(customWriteOf(p))).toEqual([
      { op: 'delete', ref: 'b', id: hex('b') },
      { op: 'create', ref: 'new', body: expect.objectContaining({ ref: 'new' }), position: { first: true } },
    ]);
  });

  it('switches to one PUT carrying every id when more than three single-rule calls would be needed', () => {
    const p = planOf(wantedOf(['e', 'd', 'c', 'b', 'a']));
    expect(active(p).every((c) => c.reason === 'reordered')).toBe(true);
    expect(active(p)).toHaveLength(4);
    const w = customWriteOf(p)!;
    expect(w.strategy).toBe('put');
    if (w.strategy === 'put') expect(w.body.rules.map((r) => [r.ref, r.id])).toEqual(['e', 'd', 'c', 'b', 'a'].map((r) => [r, hex(r)]));
    expect(p.calls.requests).toBe(1);
  });

  it('lists rules without a ref as unmanaged and keeps them in place; --prune deletes them', () => {
    const dashboard = lCustom('dash', 'ip.src eq 203.0.113.9', { ref: hex('dash') });
    const liveRules = [rules[0]!, dashboard, rules[1]!];
    const kept = planOf(wantedOf(['b', 'a']), liveRules);
    expect(kept.unmanaged).toEqual([{ kind: 'custom_rule', id: hex('dash'), summary: 'block when ip.src eq 203.0.113.9' }]);
    // The dashboard rule keeps its place between the two matched places.
    const order = ops(customWriteOf(kept));
    expect(order.every((o) => o.ref !== '')).toBe(true);
    const pruned = planOf(wantedOf(['a', 'b']), liveRules, true);
    expect(active(pruned).map((c) => [c.ref, c.action, c.reason, c.id])).toEqual([['', 'delete', 'prune', hex('dash')]]);
  });

  it('deletes a second live rule holding the same ref', () => {
    const dup = lCustom('a2', 'ip.src eq 203.0.113.1', { ref: 'a' });
    const p = planOf(wantedOf(['a', 'b', 'c', 'd', 'e']), [...rules, dup]);
    expect(active(p).map((c) => [c.reason, c.id])).toEqual([['duplicate-ref', hex('a2')]]);
    expect(p.findings.map((f) => f.code)).toContain('duplicate-ref');
  });

  it('compares skip sets in any order and fills the skip logging default', () => {
    const live1 = lCustom('s', 'true', { action: 'skip', action_parameters: { products: ['waf', 'bic'], phases: ['http_request_sbfm', 'http_ratelimit'] } });
    const want = dCustom('s', 'true', { action: 'skip', logging: { enabled: true }, actionParameters: { phases: ['http_ratelimit', 'http_request_sbfm'], products: ['bic', 'waf'] } });
    expect(active(planOf([want], [live1]))).toEqual([]);
  });

  it('fingerprints the custom phase version', () => {
    const a = diffZone(desired({ customRules: [] }), live({ customEntrypoint: customEntry(rules, '4') }));
    const b = diffZone(desired({ customRules: [] }), live({ customEntrypoint: customEntry(rules, '5') }));
    expect(a.fingerprint).not.toBe(b.fingerprint);
  });
});

describe('custom rules weakening guard', () => {
  const danger = (p: Plan) => p.findings.filter((f) => f.level === 'danger').map((f) => f.code);

  it('flags block -> log or skip, a disabled blocking rule, and a new skip of the managed phase', () => {
    const want = wantedOf(['a', 'b', 'c', 'd', 'e']);
    want[0] = { ...want[0]!, action: 'log' };
    want[1] = { ...want[1]!, action: 'skip', actionParameters: { products: ['waf'] }, logging: { enabled: true } };
    want[2] = { ...want[2]!, enabled: false };
    const added = dCustom('skip-waf', 'ip.src eq 192.0.2.200', { action: 'skip', actionParameters: { phases: ['http_request_firewall_managed'] }, logging: { enabled: true } });
    const p = planOf([...want, added]);
    expect(danger(p).sort()).toEqual(['disables-custom-rule', 'skips-managed-rules', 'weakens-action', 'weakens-action']);
  });

  it.each([
    ['gains a product', { products: ['waf'] }, true, { products: ['waf', 'rateLimit'] }, true, true],
    ['gains a phase', { phases: ['http_ratelimit'] }, true, { phases: ['http_ratelimit', 'http_request_sbfm'] }, true, true],
    ['gains the remaining rules', { products: ['waf'] }, true, { ruleset: 'current' as const, products: ['waf'] }, true, true],
    ['is enabled', { products: ['waf'] }, false, { products: ['waf'] }, true, true],
    ['loses a product', { products: ['waf', 'bic'] }, true, { products: ['waf'] }, true, false],
    ['is disabled', { products: ['waf'] }, true, { products: ['waf'] }, false, false],
  ])('a skip rule that %s is flagged as letting more through when it does', (_what, before, wasEnabled, after, enabled, flagged) => {
    const l = lCustom('s', 'ip.src eq 192.0.2.9', { action: 'skip', enabled: wasEnabled, action_parameters: before, logging: { enabled: true } });
    const want = dCustom('s', 'ip.src eq 192.0.2.9', { action: 'skip', enabled, actionParameters: after, logging: { enabled: true } });
    expect(danger(planOf([want], [l])).includes('widens-exception')).toBe(flagged);
  });

  it('flags a skip of the remaining rules placed above a block that ran before it, but not a block added below it', () => {
    const skip = lCustom('allow', 'ip.src eq 192.0.2.9', { action: 'skip', action_parameters: { ruleset: 'current' }, logging: { enabled: true } });
    const liveRules = [rules[0]!, skip];
    const skipDesired = dCustom('allow', 'ip.src eq 192.0.2.9', { action: 'skip', actionParameters: { ruleset: 'current' }, logging: { enabled: true } });
    expect(danger(planOf([skipDesired, ...wantedOf(['a'])], liveRules))).toEqual(['skip-above-block']);
    expect(danger(planOf([...wantedOf(['a']), skipDesired, dCustom('later', 'true')], liveRules))).toEqual([]);
  });
});

describe('custom rules in the JSON plan', () => {
  it('flags a live rule whose expression does not parse, and not the rules holding their desired text', () => {
    const liveRules = rules.map((r) => (r.ref === 'c' ? { ...r, expression: 'http.request.uri.path eq' } : r));
    const p = planOf(wantedOf(['a', 'b', 'c', 'd', 'e']), liveRules);
    expect(p.findings.filter((f) => f.code === 'unparsable-live-expression').map((f) => f.ref)).toEqual(['c']);
    expect(active(p).map((c) => [c.ref, c.changed])).toEqual([['c', ['expression']]]);
  });

  it('is valid against schemas/plan.schema.json and round-trips both write strategies', () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object);
    const single = planOf([dCustom('new', 'ip.src eq 198.51.100.7'), ...wantedOf(['a', 'c', 'd', 'e'])]);
    const put = planOf(wantedOf(['e', 'd', 'c', 'b', 'a']));
    for (const plan of [single, put]) {
      expect(validate(planDocument([plan], []))).toBe(true);
      expect(validate.errors ?? []).toEqual([]);
      const back = planFromJson(JSON.parse(JSON.stringify(planToJson(plan))));
      expect(customWriteOf(back)).toEqual(customWriteOf(plan));
      expect(back.changes).toEqual(plan.changes);
    }
    expect([customWriteOf(single)?.strategy, customWriteOf(put)?.strategy]).toEqual(['rules', 'put']);
  });
});
