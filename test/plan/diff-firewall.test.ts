import { describe, expect, it } from 'vitest';
import { diffZone, type Change, type Plan } from '../../src/plan/index.js';
import { dFilter, desired, dRule, hex, lFilter, live, lRule } from './fixtures.js';

const byRef = (plan: Plan, kind: Change['kind'], ref: string) => plan.changes.find((c) => c.kind === kind && c.ref === ref);
const actions = (plan: Plan) => plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind} ${c.ref || c.id}`);

describe('diffZone: filters and firewall rules', () => {
  it('creates filters before the rules that use them, naming new filters by ref', () => {
    const plan = diffZone(desired({
      filters: [dFilter('api', 'http.request.uri.path matches "^/api/"')],
      firewallRules: [dRule('block-api', 'api')],
    }), live());
    expect(actions(plan)).toEqual(['create filter api', 'create firewall_rule block-api']);
    expect(byRef(plan, 'firewall_rule', 'block-api')!.writes).toEqual([{ op: 'firewall_rule.create', body: {
      action: 'block', priority: 1, paused: false, description: '', ref: 'block-api', filter: { ref: 'api' },
    } }]);
    expect(plan.summary).toMatchObject({ add: 2, change: 0, replace: 0, destroy: 0 });
  });

  it('shows no changes when the zone matches, notation and server fields aside', () => {
    const f = lFilter('f1', '(http.request.uri.path   ~ "^/api/")', { ref: 'api' });
    const plan = diffZone(desired({
      filters: [dFilter('api', 'http.request.uri.path matches "^/api/"')],
      firewallRules: [dRule('block-api', 'api', { priority: 5 })],
    }), live({ filters: [f], firewallRules: [lRule('r1', f, { ref: 'block-api', priority: 5, created_on: '2024-01-01T00:00:00Z', modified_on: '2024-02-01T00:00:00Z' })] }));
    expect(actions(plan)).toEqual([]);
    expect(plan.summary).toMatchObject({ add: 0, change: 0, replace: 0, destroy: 0, unchanged: 2 });
    expect(plan.calls.requests).toBe(0);
  });

  it('turns a reorder into priority updates that keep every rule id', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const g = lFilter('f2', 'ip.src eq 192.0.2.2', { ref: 'g' });
    const plan = diffZone(desired({
      filters: [dFilter('f', 'ip.src eq 192.0.2.1'), dFilter('g', 'ip.src eq 192.0.2.2')],
      firewallRules: [dRule('second', 'g', { priority: 1 }), dRule('first', 'f', { priority: 2 })],
    }), live({ filters: [f, g], firewallRules: [lRule('r1', f, { ref: 'first', priority: 1 }), lRule('r2', g, { ref: 'second', priority: 2 })] }));
    expect(actions(plan)).toEqual(['update firewall_rule first', 'update firewall_rule second']);
    const first = byRef(plan, 'firewall_rule', 'first')!;
    expect(first).toMatchObject({ reason: 'reordered', id: hex('r1'), changed: ['priority'] });
    expect(first.writes).toEqual([{ op: 'firewall_rule.update', id: hex('r1'), body: expect.objectContaining({ priority: 2, filter: { id: hex('f1') } }) }]);
  });

  it('renames with renamed_from in place: same ids, a ref update, never delete and create', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'old-filter' });
    const plan = diffZone(desired({
      filters: [dFilter('new-filter', 'ip.src eq 192.0.2.1', { renamedFrom: 'old-filter' })],
      firewallRules: [dRule('new-rule', 'new-filter', { renamedFrom: 'old-rule' })],
    }), live({ filters: [f], firewallRules: [lRule('r1', f, { ref: 'old-rule' })] }));
    expect(actions(plan)).toEqual(['update filter new-filter', 'update firewall_rule new-rule']);
    expect(byRef(plan, 'filter', 'new-filter')).toMatchObject({ reason: 'renamed', id: hex('f1'), changed: ['ref'] });
    const rule = byRef(plan, 'firewall_rule', 'new-rule')!;
    expect(rule).toMatchObject({ reason: 'renamed', id: hex('r1') });
    // Same filter (renamed by its own change): the rule's filter does not count as changed.
    expect(rule.changed).toEqual(['ref']);
  });

  it('deletes what left the manifest: rules before filters', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'gone' });
    const plan = diffZone(desired(), live({ filters: [f], firewallRules: [lRule('r1', f, { ref: 'gone-rule' })] }));
    expect(actions(plan)).toEqual(['delete firewall_rule gone-rule', 'delete filter gone']);
    expect(plan.changes.map((c) => c.writes[0]?.op)).toEqual(['firewall_rule.delete', 'filter.delete']);
    expect(plan.changes[0]!.reason).toBe('not-in-manifest');
  });

  it('lists unmanaged objects and leaves them alone; --prune deletes them', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.9');
    const zone = live({ filters: [f], firewallRules: [lRule('r1', f, { action: 'challenge' })] });
    const plan = diffZone(desired(), zone);
    expect(actions(plan)).toEqual([]);
    expect(plan.unmanaged).toEqual([
      { kind: 'firewall_rule', id: hex('r1'), summary: 'challenge when ip.src eq 192.0.2.9' },
      { kind: 'filter', id: hex('f1'), summary: 'ip.src eq 192.0.2.9' },
    ]);
    const pruned = diffZone(desired(), zone, { prune: true });
    expect(pruned.unmanaged).toEqual([]);
    expect(actions(pruned)).toEqual([`delete firewall_rule ${hex('r1')}`, `delete filter ${hex('f1')}`]);
    expect(pruned.changes.every((c) => c.reason === 'prune')).toBe(true);
  });

  it('moves a rule to a new filter: create the filter, repoint, then delete the old one', () => {
    const old = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'old' });
    const plan = diffZone(desired({
      filters: [dFilter('new', 'ip.src eq 192.0.2.2')],
      firewallRules: [dRule('r', 'new')],
    }), live({ filters: [old], firewallRules: [lRule('r1', old, { ref: 'r' })] }));
    expect(actions(plan)).toEqual(['create filter new', 'update firewall_rule r', 'delete filter old']);
    expect(byRef(plan, 'firewall_rule', 'r')).toMatchObject({ reason: 'repointed', changed: ['filter'] });
    expect(byRef(plan, 'firewall_rule', 'r')!.writes[0]).toMatchObject({ body: { filter: { ref: 'new' } } });
  });

  it('refuses, before apply, a filter whose expression an unmanaged filter has; --prune adopts it', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1');
    const want = desired({ filters: [dFilter('mine', 'ip.src eq 192.0.2.1')] });
    const plan = diffZone(want, live({ filters: [f] }));
    expect(plan.findings).toEqual([expect.objectContaining({ level: 'error', code: 'duplicate-expression', ref: 'mine' })]);
    expect(plan.findings[0]!.message).toContain('zonewall export');
    const adopted = diffZone(want, live({ filters: [f] }), { prune: true });
    expect(adopted.findings).toEqual([]);
    expect(actions(adopted)).toEqual(['update filter mine']);
    expect(byRef(adopted, 'filter', 'mine')).toMatchObject({ reason: 'adopted', id: hex('f1'), changed: ['ref'] });
  });

  it('re-keys a managed filter that a new key with its expression replaces, instead of a refused duplicate', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'before' });
    const plan = diffZone(desired({ filters: [dFilter('after', 'ip.src  eq 192.0.2.1')] }), live({ filters: [f] }));
    expect(plan.findings).toEqual([]);
    expect(actions(plan)).toEqual(['update filter after']);
    expect(byRef(plan, 'filter', 'after')).toMatchObject({ reason: 'renamed', id: hex('f1'), changed: ['ref'] });
  });

  it('turns a rule\'s inline filter into a shared key with the same expression without a new filter', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'r' });
    const plan = diffZone(desired({
      filters: [dFilter('shared', 'ip.src eq 192.0.2.1')],
      firewallRules: [dRule('r', 'shared'), dRule('r2', 'shared', { priority: 2 })],
    }), live({ filters: [f], firewallRules: [lRule('r1', f, { ref: 'r', priority: 1 })] }));
    expect(plan.findings).toEqual([]);
    expect(actions(plan)).toEqual(['update filter shared', 'create firewall_rule r2']);
    expect(byRef(plan, 'firewall_rule', 'r')).toMatchObject({ action: 'no-op', id: hex('r1') });
  });

  it('leaves a locked (simplified-flow) filter alone when re-keying by expression', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'before', locked: true });
    const plan = diffZone(desired({ filters: [dFilter('after', 'ip.src eq 192.0.2.1')] }), live({ filters: [f] }));
    expect(plan.findings.map((x) => x.code)).toContain('locked-filter-duplicate');
  });

  it('does not report a duplicate when a kept filter gives up the expression first', () => {
    const a = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'a' });
    const plan = diffZone(desired({ filters: [dFilter('a', 'ip.src eq 192.0.2.7'), dFilter('b', 'ip.src eq 192.0.2.1')] }), live({ filters: [a] }));
    expect(plan.findings).toEqual([]);
    expect(actions(plan)).toEqual(['update filter a', 'create filter b']);
  });

  it('reports two manifest filters with one expression', () => {
    const plan = diffZone(desired({ filters: [dFilter('a', 'ip.src eq 192.0.2.1'), dFilter('b', 'ip.src  eq 192.0.2.1')] }), live());
    expect(plan.findings.map((f) => f.code)).toEqual(['duplicate-desired-expression']);
  });

  it('matches an inline filter to the simplified-flow filter its rule uses (no ref on the filter)', () => {
    const locked = lFilter('f1', 'http.user_agent contains "sqlmap"', { locked: true });
    const plan = diffZone(desired({
      filters: [dFilter('block-sqlmap', 'http.user_agent contains "sqlmap"', { inline: true })],
      firewallRules: [dRule('block-sqlmap', 'block-sqlmap')],
    }), live({ filters: [locked], firewallRules: [lRule('r1', locked, { ref: 'block-sqlmap' })] }));
    expect(actions(plan)).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('replaces a simplified-flow filter whose expression changes: the rule goes first with its filter, both are created again', () => {
    const locked = lFilter('f1', 'http.user_agent contains "sqlmap"', { locked: true });
    const plan = diffZone(desired({
      filters: [dFilter('bots', 'http.user_agent contains "nikto"', { inline: true })],
      firewallRules: [dRule('bots', 'bots')],
    }), live({ filters: [locked], firewallRules: [lRule('r1', locked, { ref: 'bots' })] }));
    expect(actions(plan)).toEqual(['replace firewall_rule bots', 'replace filter bots']);
    expect(byRef(plan, 'filter', 'bots')).toMatchObject({ reason: 'locked-filter', writes: [{ op: 'filter.create' }] });
    expect(byRef(plan, 'firewall_rule', 'bots')!.writes).toEqual([
      { op: 'firewall_rule.delete', id: hex('r1'), destroyFirst: true, deleteFilterIfUnused: true },
      expect.objectContaining({ op: 'firewall_rule.create', body: expect.objectContaining({ filter: { ref: 'bots' } }) }),
    ]);
    expect(plan.findings).toEqual([]);
  });

  it('sends delete_filter_if_unused only with rule deletes whose filter the plan deletes too', () => {
    const shared = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'shared' });
    const goes = lFilter('f2', 'ip.src eq 192.0.2.2', { ref: 'goes' });
    const plan = diffZone(desired({ filters: [dFilter('shared', 'ip.src eq 192.0.2.1')] }), live({
      filters: [shared, goes],
      firewallRules: [lRule('r1', shared, { ref: 'a' }), lRule('r2', goes, { ref: 'b' })],
    }));
    const deletes = plan.changes.flatMap((c) => c.writes).filter((w) => w.op === 'firewall_rule.delete');
    // Last-evaluated-first (issue 32): b after a in evaluation order, so deleted first.
    expect(deletes).toEqual([{ op: 'firewall_rule.delete', id: hex('r2'), deleteFilterIfUnused: true }, { op: 'firewall_rule.delete', id: hex('r1') }]);
  });

  it('says when the service does not report simplified-flow filters and a write may be refused', () => {
    const foreign = lFilter('f1', 'ip.src eq 192.0.2.1');
    const zone = live({ filters: [foreign] });
    const plan = diffZone(desired({ filters: [dFilter('mine', 'ip.src eq 192.0.2.1', { description: 'now mine' })] }), { ...zone, filterLocks: 'unknown' }, { prune: true });
    expect(actions(plan)).toEqual(['update filter mine']);
    expect(plan.findings).toEqual([expect.objectContaining({ level: 'warning', code: 'filter-lock-unknown', ref: 'mine' })]);
    expect(plan.findings[0]!.message).toContain('10104');
    expect(diffZone(desired({ filters: [dFilter('mine', 'ip.src eq 192.0.2.1', { description: 'now mine' })] }), zone, { prune: true }).findings).toEqual([]);
  });

  it('recreates rule and simplified-flow filter when only the description changes (destroy first)', () => {
    const locked = lFilter('f1', 'http.user_agent contains "sqlmap"', { locked: true });
    const plan = diffZone(desired({
      filters: [dFilter('bots', 'http.user_agent contains "sqlmap"', { inline: true, description: 'scanners' })],
      firewallRules: [dRule('bots', 'bots')],
    }), live({ filters: [locked], firewallRules: [lRule('r1', locked, { ref: 'bots' })] }));
    expect(actions(plan)).toEqual(['replace firewall_rule bots', 'replace filter bots']);
    expect(byRef(plan, 'firewall_rule', 'bots')!.writes.map((w) => w.op)).toEqual(['firewall_rule.delete', 'firewall_rule.create']);
    expect(plan.findings).toEqual([]);
    expect(plan.calls.phases.map((p) => p.phase)).toEqual(['firewall_rules.delete_first', 'filters.create', 'firewall_rules.create']);
  });

  it('keeps a managed filter an unmanaged rule still uses, and says so', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'gone' });
    const plan = diffZone(desired(), live({ filters: [f], firewallRules: [lRule('r1', f)] }));
    expect(actions(plan)).toEqual([]);
    expect(plan.findings.map((x) => x.code)).toEqual(['filter-still-used']);
  });

  it('says so when a live expression does not parse, and treats it as different', () => {
    const f = lFilter('f1', 'ip.src eq', { ref: 'f' });
    const plan = diffZone(desired({ filters: [dFilter('f', 'ip.src eq 192.0.2.1')] }), live({ filters: [f] }));
    expect(actions(plan)).toEqual(['update filter f']);
    expect(plan.findings.map((x) => x.code)).toEqual(['unparsable-live-expression']);
  });

  it('reports a rule whose filter the manifest does not declare', () => {
    const plan = diffZone(desired({ firewallRules: [dRule('r', 'nope')] }), live());
    expect(plan.findings).toEqual([expect.objectContaining({ level: 'error', code: 'missing-filter', ref: 'r' })]);
  });

  it('deletes the extra one of two live rules sharing a ref', () => {
    const f = lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const plan = diffZone(desired({ filters: [dFilter('f', 'ip.src eq 192.0.2.1')], firewallRules: [dRule('r', 'f')] }),
      live({ filters: [f], firewallRules: [lRule('r1', f, { ref: 'r' }), lRule('r2', f, { ref: 'r' })] }));
    expect(actions(plan)).toEqual(['delete firewall_rule r']);
    expect(plan.changes.find((c) => c.action === 'delete')).toMatchObject({ id: hex('r2'), reason: 'duplicate-ref' });
  });

  it('reports tier limits from the manifest rules as errors', () => {
    const plan = diffZone(desired({ filters: [dFilter('f', 'ip.src eq 192.0.2.1')], firewallRules: [dRule('r', 'f', { action: 'log' })] }),
      live({ zone: { id: hex('zone'), name: 'example.com', plan: 'pro' } }));
    expect(plan.findings).toEqual([expect.objectContaining({ level: 'error', code: 'tier' })]);
  });

  it('takes the simplified-flow filter the quota case left without a rule, for an inline filter only', () => {
    const orphan = lFilter('f1', 'http.user_agent contains "sqlmap"', { locked: true });
    const inline = diffZone(desired({
      filters: [dFilter('bots', 'http.user_agent contains "sqlmap"', { inline: true, description: 'scanners' })],
      firewallRules: [dRule('bots', 'bots')],
    }), live({ filters: [orphan] }));
    expect(actions(inline)).toEqual(['create firewall_rule bots']);
    expect(byRef(inline, 'firewall_rule', 'bots')!.writes[0]).toMatchObject({ body: { filter: { id: hex('f1') } } });
    expect(inline.findings.map((f) => `${f.level} ${f.code}`)).toEqual(['warning locked-filter-orphan']);
    const shared = diffZone(desired({ filters: [dFilter('bots', 'http.user_agent contains "sqlmap"')] }), live({ filters: [orphan] }));
    expect(shared.findings).toEqual([expect.objectContaining({ level: 'error', code: 'locked-filter-duplicate' })]);
    expect(shared.findings[0]!.message).toContain('write "bots" inline in its rule');
  });
});
