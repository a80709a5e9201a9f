import { describe, expect, it } from 'vitest';
import { compactOverrides, desiredBody, proposalBody, rulesetAlias, toManifestEntry } from '../../src/migrate/index.js';
import { effectiveOwasp, owaspOverrides, readOwaspOverrides, thresholdLevel } from '../../src/migrate/owasp.js';
import { ManagedRulesetIds, OwaspScoreRuleId } from '../../src/migrate/constants.js';
import type { EntrypointBody, ExecuteEntrypointRule } from '../../src/plan/index.js';

const pl2 = [{ category: 'paranoia-level-3', enabled: false }, { category: 'paranoia-level-4', enabled: false }];

function execute(id: string, overrides?: ExecuteEntrypointRule['action_parameters']['overrides'], extra: Partial<ExecuteEntrypointRule> = {}): ExecuteEntrypointRule {
  return { action: 'execute', expression: 'true', enabled: true, action_parameters: { id, ...(overrides ? { overrides } : {}) }, ...extra };
}

describe('OWASP overrides', () => {
  it('expresses a paranoia level as the higher levels disabled, and threshold and action on 949110', () => {
    expect(owaspOverrides({ paranoiaLevel: 2, scoreThreshold: 40, action: 'log' })).toEqual({
      categories: pl2,
      rules: [{ id: OwaspScoreRuleId, action: 'log', score_threshold: 40 }],
    });
    expect(owaspOverrides({ paranoiaLevel: 4 })).toEqual({});
  });

  it('reads its own output back', () => {
    const settings = { paranoiaLevel: 1, scoreThreshold: 25, action: 'challenge' };
    expect(readOwaspOverrides(owaspOverrides(settings))).toEqual({ settings, rest: {} });
  });

  it('keeps overrides that are not the shorthand\'s shape apart', () => {
    const r = readOwaspOverrides({
      enabled: true,
      categories: [{ category: 'paranoia-level-4', enabled: false }, { category: 'xss', action: 'log' }],
      rules: [{ id: 'aa'.repeat(16), enabled: false }, { id: OwaspScoreRuleId, score_threshold: 60 }],
    });
    expect(r.settings).toEqual({ paranoiaLevel: 3, scoreThreshold: 60 });
    expect(r.rest).toEqual({ enabled: true, categories: [{ category: 'xss', action: 'log' }], rules: [{ id: 'aa'.repeat(16), enabled: false }] });
  });

  it('does not read a paranoia level from categories that are not exactly the higher levels disabled', () => {
    const odd = { categories: [{ category: 'paranoia-level-3', enabled: false }] };
    expect(readOwaspOverrides(odd)).toEqual({ settings: {}, rest: odd });
  });

  it('fills the 949110 defaults for the report', () => {
    expect(effectiveOwasp(undefined)).toEqual({ paranoiaLevel: undefined, scoreThreshold: 40, action: 'block' });
  });

  it('names thresholds', () => {
    expect(thresholdLevel(25)).toBe('high');
    expect(thresholdLevel(60)).toBe('low');
    expect(thresholdLevel(33)).toBe(33);
  });
});

describe('toManifestEntry', () => {
  it('writes the OWASP deployment with the manifest\'s shorthand', () => {
    const rule = execute(ManagedRulesetIds.owasp, { categories: pl2, rules: [{ id: OwaspScoreRuleId, score_threshold: 40, action: 'log' }] });
    expect(toManifestEntry(rule)).toEqual({ ruleset: 'owasp', paranoia_level: 2, score_threshold: 'medium', action: 'log' });
  });

  it('writes the live ref when it is not the default one, and leaves out defaults', () => {
    const rule = execute(ManagedRulesetIds.managed, { rules: [{ id: 'ab'.repeat(16), action: 'log' }], categories: [] }, { id: 'cd'.repeat(16), ref: 'cd'.repeat(16), description: '' });
    expect(toManifestEntry(rule)).toEqual({ ruleset: 'managed', ref: 'cd'.repeat(16), overrides: { rules: [{ id: 'ab'.repeat(16), action: 'log' }] } });
    expect(toManifestEntry({ ...rule, ref: 'managed' }).ref).toBeUndefined();
  });

  it('keeps a disabled deployment, an expression and an unknown ruleset id', () => {
    const rule = execute('ef'.repeat(16), undefined, { enabled: false, expression: 'http.host eq "a.com"', description: 'x' });
    expect(toManifestEntry(rule)).toEqual({ ruleset: 'ef'.repeat(16), description: 'x', enabled: false, expression: 'http.host eq "a.com"' });
  });

  it('uses catalog aliases', () => {
    expect(rulesetAlias(ManagedRulesetIds.free)).toBe('free');
    expect(compactOverrides({ categories: [], rules: [] })).toBeUndefined();
  });
});

describe('PUT bodies', () => {
  const proposal: EntrypointBody = {
    name: 'default',
    rules: [{ ...execute(ManagedRulesetIds.managed), id: '', version: '', ref: '', description: '' }],
  };

  it('omits id, version and ref for validation mode', () => {
    const body = proposalBody(proposal, 'validation');
    expect(body.rules[0]).not.toHaveProperty('id');
    expect(body.rules[0]).not.toHaveProperty('version');
    expect(body.rules[0]).not.toHaveProperty('ref');
    expect(body.name).toBe('default');
  });

  it('carries them as returned for pending mode', () => {
    expect(proposalBody(proposal, 'pending').rules[0]).toMatchObject({ id: '', version: '', ref: '' });
  });

  it('builds a body from the manifest\'s managed rules, refs included', () => {
    const body = desiredBody([{
      ref: 'owasp', rulesetId: ManagedRulesetIds.owasp, enabled: true, expression: 'true', description: '',
      overrides: { categories: pl2, rules: [] }, location: { file: 'z.yaml', line: 1, column: 1 },
    }]);
    expect(body.rules).toEqual([{ action: 'execute', expression: 'true', description: '', ref: 'owasp', enabled: true, action_parameters: { id: ManagedRulesetIds.owasp, overrides: { categories: pl2 } } }]);
  });
});
