/**
 * Page Rules in the plan: matched by URL pattern (they have no ref), one POST/PUT/DELETE each,
 * other actions kept, unmatched live ones unmanaged unless --prune, left alone without a section.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredPageRule } from '../../src/manifest/index.js';
import { diffZone, renderPlanText, type LivePageRule } from '../../src/plan/index.js';
import { desired, live, loc } from './fixtures.js';

const pr = (key: string, url: string, more: Partial<DesiredPageRule> = {}): DesiredPageRule => ({ key, url, disableSecurity: false, status: 'active', priority: 1, location: loc, ...more });
const lpr = (id: string, url: string, actions: LivePageRule['actions'], more: Partial<LivePageRule> = {}): LivePageRule => ({
  id, targets: [{ target: 'url', constraint: { operator: 'matches', value: url } }], actions, priority: 1, status: 'active', ...more,
});

describe('diffZone: Page Rules', () => {
  it('creates, updates (keeping other actions) and lists unmatched live Page Rules as unmanaged', () => {
    const plan = diffZone(desired({ pageRules: [pr('images', '*example.com/images/*', { disableSecurity: true }), pr('legacy', 'example.com/legacy/*', { waf: 'off' })] }), live({
      pageRules: [
        lpr('p1', 'example.com/legacy/*', [{ id: 'waf', value: 'on' }, { id: 'cache_level', value: 'bypass' }]),
        lpr('p2', '*example.com/other/*', [{ id: 'disable_security' }]),
      ],
    }));
    expect(plan.changes.flatMap((c) => c.writes)).toEqual([
      { op: 'page_rule.create', body: { targets: [{ target: 'url', constraint: { operator: 'matches', value: '*example.com/images/*' } }], actions: [{ id: 'disable_security' }], priority: 1, status: 'active' } },
      { op: 'page_rule.update', id: 'p1', body: { targets: [{ target: 'url', constraint: { operator: 'matches', value: 'example.com/legacy/*' } }], actions: [{ id: 'waf', value: 'off' }, { id: 'cache_level', value: 'bypass' }], priority: 1, status: 'active' } },
    ]);
    expect(plan.unmanaged).toEqual([{ kind: 'page_rule', id: 'p2', summary: '*example.com/other/*: disable_security' }]);
    expect(plan.calls.phases).toEqual([{ phase: 'page_rules', objects: 2, requests: 2 }]);
    expect(renderPlanText(plan)).toContain('waf: "on" -> "off"');
  });

  it('deletes unmatched Page Rules only with --prune, plans nothing in sync, and leaves them alone without a section', () => {
    const rules = [lpr('p1', 'example.com/a/*', [{ id: 'disable_security' }]), lpr('p2', 'example.com/b/*', [{ id: 'waf', value: 'off' }])];
    const pruned = diffZone(desired({ pageRules: [pr('a', 'example.com/a/*', { disableSecurity: true })] }), live({ pageRules: rules }), { prune: true });
    expect(pruned.changes.map((c) => [c.action, c.id])).toEqual([['no-op', 'p1'], ['delete', 'p2']]);
    expect(diffZone(desired(), live({ pageRules: rules })).changes).toEqual([]);
  });

  it('is an error on a service without Page Rules', () => {
    const plan = diffZone(desired({ pageRules: [pr('a', 'example.com/a/*', { waf: 'off' })] }), live());
    expect(plan.findings.map((f) => `${f.level} ${f.code}`)).toEqual(['error page-rules-unavailable']);
  });
});
