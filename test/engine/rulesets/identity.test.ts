import { describe, expect, it } from 'vitest';
import { reconcileRules } from '../../../src/engine/rulesets/identity.js';
import type { EntrypointRule, RuleInput } from '../../../src/engine/rulesets/types.js';

const input = (over: Partial<RuleInput> = {}): RuleInput => ({ action: 'execute', expression: 'true', description: '', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee', version: 'latest' }, ...over });
let n = 0;
const newId = () => `id${++n}`;

describe('reconcileRules', () => {
  it('assigns ids, refs (= id), version 1 and the time to new rules', () => {
    const { rules, changed } = reconcileRules([], [input(), input({ ref: 'mine' })], 'T1', () => 'new');
    expect(rules.map((r) => [r.id, r.ref, r.version, r.last_updated])).toEqual([['new', 'new', '1', 'T1'], ['new', 'mine', '1', 'T1']]);
    expect(changed).toBe(true);
  });

  it('keeps ids and versions of unchanged rules, matched by ref then id', () => {
    const first = reconcileRules([], [input({ ref: 'a' }), input({ description: 'b' })], 'T1', newId).rules;
    const second = reconcileRules(first, [input({ id: first[1]!.id, description: 'b' }), input({ ref: 'a' })], 'T2', newId);
    expect(second.rules.map((r) => [r.id, r.version, r.last_updated])).toEqual([[first[1]!.id, '1', 'T1'], [first[0]!.id, '1', 'T1']]);
    expect(second.changed).toBe(true); // moved, not modified
    expect(reconcileRules(second.rules, [input({ ref: first[1]!.ref, description: 'b' }), input({ ref: 'a' })], 'T3', newId).changed).toBe(false);
  });

  it('bumps the version of a changed rule and stamps it', () => {
    const first = reconcileRules([], [input({ ref: 'a' })], 'T1', newId).rules;
    const next = reconcileRules(first, [input({ ref: 'a', enabled: false })], 'T2', newId).rules[0]!;
    expect([next.id, next.version, next.last_updated]).toEqual([first[0]!.id, '2', 'T2']);
  });

  it('gives a rule matched by id a new ref when one is given', () => {
    const first = reconcileRules([], [input()], 'T1', newId).rules;
    const next = reconcileRules(first, [input({ id: first[0]!.id, ref: 'named' })], 'T2', newId).rules[0]!;
    expect([next.id, next.ref, next.version]).toEqual([first[0]!.id, 'named', '2']);
  });

  it('refuses ids that are not rules of the entry point, and one rule claimed twice', () => {
    const first: EntrypointRule[] = reconcileRules<EntrypointRule>([], [input({ ref: 'a' })], 'T1', newId).rules;
    expect(reconcileRules(first, [input({ id: 'ffff' })], 'T2', newId).errors.map((e) => [e.code, e.source?.pointer])).toEqual([[20205, '/rules/0/id']]);
    expect(reconcileRules(first, [input({ ref: 'a' }), input({ id: first[0]!.id })], 'T2', newId).errors.map((e) => e.source?.pointer)).toEqual(['/rules/1/id']);
  });
});
