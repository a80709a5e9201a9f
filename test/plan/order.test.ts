/**
 * The apply order of a plan's changes (`src/plan/order.ts`): by the phase of the first write (a
 * change without writes by its kind and action), then kind, then ref and id, except managed
 * rulesets and custom rules, which keep their order. One table of changes given out of order.
 */
import { describe, expect, it } from 'vitest';
import type { Action, Change, ResourceKind, Write } from '../../src/plan/index.js';
import { noOpChange } from '../../src/plan/index.js';
import { orderChanges } from '../../src/plan/order.js';

function change(kind: ResourceKind, action: Action, ref: string, writes: Write[], id?: string): Change {
  return { kind, action, reason: 'changed', ref, ...(id !== undefined ? { id } : {}), before: null, after: null, changed: [], writes };
}

const body = { expression: 'ip.src eq 192.0.2.1', paused: false, description: '', ref: 'x' };
const ruleBody = { action: 'block', priority: null, paused: false, description: '', ref: 'x', filter: { id: 'f' } } as unknown as Extract<Write, { op: 'firewall_rule.create' }>['body'];

/** Each change's ref (then `#id` when given), in the order they are given. */
const table: [string, Change][] = [
  ['filter delete b', change('filter', 'delete', 'b', [{ op: 'filter.delete', id: 'fb' }], 'fb')],
  ['managed z', change('managed_ruleset', 'update', 'z', [])],
  ['rule no-op b', noOpChange('firewall_rule', 'b', 'rb')],
  ['custom z', change('custom_rule', 'update', 'z', [])],
  ['rule delete first b', change('firewall_rule', 'replace', 'b', [{ op: 'firewall_rule.delete', id: 'r1', destroyFirst: true }, { op: 'firewall_rule.create', body: ruleBody }], 'r1')],
  ['page rule a', change('page_rule', 'create', 'a', [{ op: 'page_rule.create', body: {} as Extract<Write, { op: 'page_rule.create' }>['body'] }])],
  ['filter create b', change('filter', 'create', 'b', [{ op: 'filter.create', body }])],
  ['filter no-op a', noOpChange('filter', 'a', 'fa')],
  ['rule delete duplicate a#r9', change('firewall_rule', 'delete', 'a', [{ op: 'firewall_rule.delete', id: 'r9' }], 'r9')],
  ['waf group a', change('waf_group', 'update', 'a', [{ op: 'waf_group.patch', packageId: 'p', groupId: 'g', mode: 'on' }])],
  ['follows-rule filter c', change('filter', 'delete', 'c', [], 'fc')],
  ['rule update a', change('firewall_rule', 'update', 'a', [{ op: 'firewall_rule.update', id: 'ra', body: ruleBody }], 'ra')],
  ['migration', change('waf_migration', 'update', '', [])],
  ['waf package b', change('waf_package', 'update', 'b', [{ op: 'waf_package.patch', packageId: 'p', body: {} }])],
  ['filter update c', change('filter', 'update', 'c', [{ op: 'filter.update', id: 'fc2', body }], 'fc2')],
  ['custom a', change('custom_rule', 'create', 'a', [])],
  ['rule delete duplicate a#r2', change('firewall_rule', 'delete', 'a', [{ op: 'firewall_rule.delete', id: 'r2' }], 'r2')],
  ['managed a', change('managed_ruleset', 'create', 'a', [])],
  ['rule create a', change('firewall_rule', 'create', 'a', [{ op: 'firewall_rule.create', body: ruleBody }])],
  ['page rule no-op c', noOpChange('page_rule', 'c', 'pc')],
];

describe('orderChanges', () => {
  it('orders by phase, kind, then ref and id; managed rulesets and custom rules keep their order', () => {
    const named = new Map(table.map(([name, c]) => [c, name]));
    expect(orderChanges(table.map(([, c]) => c)).map((c) => named.get(c))).toEqual([
      'rule delete first b',
      'filter no-op a', 'filter update c',
      'filter create b',
      'rule update a', 'rule no-op b', 'page rule no-op c',
      'rule create a',
      'page rule a',
      'waf package b', 'waf group a',
      'custom z', 'custom a',
      'managed z', 'managed a', 'migration',
      // Firewall rule deletions go last-evaluated-first (issue 32): the same ref, so by id, reversed.
      'rule delete duplicate a#r9', 'rule delete duplicate a#r2',
      'filter delete b', 'follows-rule filter c',
    ]);
  });
});
