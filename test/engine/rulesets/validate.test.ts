import { describe, expect, it } from 'vitest';
import { Problems } from '../../../src/engine/body-reader.js';
import { entitlementProblems } from '../../../src/engine/rulesets/entitlements.js';
import { readEntrypointBody, type ExpressionCheck } from '../../../src/engine/rulesets/validate.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const FREE = '77454fe2d30c4220b5701f6fdfb893ba';
const okExpr: ExpressionCheck = (source, pointer) => (source.includes('%%') ? { code: 10015, message: 'Filter parsing error (1:1)', source: { pointer } } : undefined);

function read(body: unknown) {
  const problems = new Problems();
  const input = readEntrypointBody(body, problems, okExpr);
  return { input, errors: problems.list.map((e) => ({ code: e.code, pointer: e.source?.pointer, message: e.message })) };
}
const execute = (id: string, extra: Record<string, unknown> = {}) => ({ action: 'execute', expression: 'true', action_parameters: { id, ...extra } });

describe('readEntrypointBody', () => {
  it('reads a valid body with defaults filled in', () => {
    const { input, errors } = read({ name: 'default', rules: [execute(MANAGED)] });
    expect(errors).toEqual([]);
    expect(input).toEqual({ name: 'default', rules: [{ action: 'execute', expression: 'true', description: '', enabled: true, action_parameters: { id: MANAGED, version: 'latest' } }] });
  });

  it('keeps non-empty ids and refs and drops empty ones (the migration config shape)', () => {
    const { input } = read({ rules: [{ ...execute(MANAGED), id: '', ref: '', version: '' }, { ...execute(OWASP), id: 'x', ref: 'owasp' }] });
    expect(input!.rules[0]).not.toHaveProperty('id');
    expect(input!.rules[0]).not.toHaveProperty('ref');
    expect(input!.rules[1]).toMatchObject({ id: 'x', ref: 'owasp' });
  });

  it('refuses unknown rulesets, naming the way to list them', () => {
    const { errors } = read({ rules: [execute('0123456789abcdef0123456789abcdef')] });
    expect(errors).toEqual([expect.objectContaining({ code: 20201, pointer: '/rules/0/action_parameters/id' })]);
    expect(errors[0]!.message).toContain('GET /zones/{zone_id}/rulesets');
  });

  it('accepts the deprecated Exposed Credentials Check ruleset and hints at the id for an alias', () => {
    expect(read({ rules: [execute('c2e184081120413c86c3ab7e14069605')] }).errors).toEqual([]);
    const { errors } = read({ rules: [execute('owasp')] });
    expect(errors[0]!.message).toContain(`did you mean Cloudflare OWASP Core Ruleset, ${OWASP}?`);
  });

  it('refuses unknown rule ids and categories in overrides', () => {
    const { errors } = read({ rules: [execute(MANAGED, { overrides: { rules: [{ id: 'ffffffffffffffffffffffffffffffff', action: 'log' }], categories: [{ category: 'nope', enabled: false }] } })] });
    expect(errors.map((e) => [e.code, e.pointer])).toEqual([
      [20202, '/rules/0/action_parameters/overrides/categories/0/category'],
      [20202, '/rules/0/action_parameters/overrides/rules/0/id'],
    ]);
  });

  it('refuses bad actions: rule actions of other phases, unknown actions and override actions', () => {
    const { errors } = read({ rules: [
      { action: 'block', expression: 'true' },
      { action: 'frobnicate', expression: 'true' },
      execute(MANAGED, { overrides: { action: 'skip' } }),
      execute(OWASP, { overrides: { rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', action: 'score' }] } }),
    ] });
    expect(errors.map((e) => [e.code, e.pointer])).toEqual([
      [20203, '/rules/0/action'],
      [20203, '/rules/1/action'],
      [20203, '/rules/2/action_parameters/overrides/action'],
      [20203, '/rules/3/action_parameters/overrides/rules/0/action'],
    ]);
    expect(errors[0]!.message).toContain('execute (deploy a managed ruleset) and skip');
  });

  it('refuses bad expressions with the checker message', () => {
    const { errors } = read({ rules: [{ ...execute(MANAGED), expression: 'http.host %% 1' }] });
    expect(errors).toEqual([expect.objectContaining({ code: 10015, pointer: '/rules/0/expression' })]);
  });

  it('allows score_threshold only on the OWASP threshold rule, as an integer', () => {
    const owaspRule = 'a6be45d4905042b9964ff81dc12e41d2';
    const { errors } = read({ rules: [execute(OWASP, { overrides: { rules: [
      { id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 60, action: 'managed_challenge' },
      { id: owaspRule, score_threshold: 10 },
    ] } }), execute(OWASP, { overrides: { rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 2.5 }] } })] });
    expect(errors.map((e) => e.pointer)).toEqual([
      '/rules/0/action_parameters/overrides/rules/1/score_threshold',
      '/rules/1/action_parameters/overrides/rules/0/score_threshold',
    ]);
  });

  it('refuses sensitivity_level (DDoS only), unknown fields and duplicate overrides', () => {
    const { errors } = read({ rules: [execute(MANAGED, { overrides: { sensitivity_level: 'low', rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd' }, { id: '5f6744fa026a4638bda5b3d7d5e015dd' }] } })], extra: 1 });
    expect(errors.map((e) => e.pointer)).toEqual(['/extra', '/rules/0/action_parameters/overrides/sensitivity_level', '/rules/0/action_parameters/overrides/rules/1']);
  });

  it('accepts the read-only fields of a GET body but checks kind and phase', () => {
    expect(read({ id: 'x', version: '3', last_updated: 'now', source: 'firewall_managed', kind: 'zone', phase: 'http_request_firewall_managed', rules: [] }).errors).toEqual([]);
    expect(read({ kind: 'managed', phase: 'http_ratelimit', rules: [] }).errors.map((e) => e.pointer)).toEqual(['/kind', '/phase']);
  });

  it('requires rules and action_parameters', () => {
    expect(read({ name: 'x' }).errors.map((e) => e.pointer)).toEqual(['/rules']);
    expect(read({ rules: [{ action: 'execute', expression: 'true' }] }).errors.map((e) => e.pointer)).toEqual(['/rules/0/action_parameters']);
  });

  it('refuses duplicate refs', () => {
    expect(read({ rules: [{ ...execute(MANAGED), ref: 'a' }, { ...execute(OWASP), ref: 'a' }] }).errors.map((e) => e.pointer)).toEqual(['/rules/1/ref']);
  });

  it('reads skip rules: exactly one of ruleset, rulesets, rules, with known ids', () => {
    const skip = (p: unknown) => ({ action: 'skip', expression: 'true', action_parameters: p, logging: { enabled: true } });
    const good = read({ rules: [skip({ ruleset: 'current' }), skip({ rulesets: [OWASP] }), skip({ rules: { [MANAGED]: ['5f6744fa026a4638bda5b3d7d5e015dd'] } })] });
    expect(good.errors).toEqual([]);
    expect(good.input!.rules.map((r) => r.action_parameters)).toEqual([{ ruleset: 'current' }, { rulesets: [OWASP] }, { rules: { [MANAGED]: ['5f6744fa026a4638bda5b3d7d5e015dd'] } }]);
    const bad = read({ rules: [skip({}), skip({ ruleset: 'all' }), skip({ rules: { [MANAGED]: ['nope'] } }), skip({ ruleset: 'current', rulesets: [] })] });
    expect(bad.errors.map((e) => [e.code, e.pointer])).toEqual([
      [10014, '/rules/0/action_parameters'],
      [10014, '/rules/1/action_parameters/ruleset'],
      [20202, `/rules/2/action_parameters/rules/${MANAGED}/0`],
      [10014, '/rules/3/action_parameters'],
    ]);
  });

  it('refuses logging on execute rules', () => {
    expect(read({ rules: [{ ...execute(MANAGED), logging: { enabled: true } }] }).errors.map((e) => e.pointer)).toEqual(['/rules/0/logging']);
  });
});

describe('entitlements', () => {
  it('lets Free zones deploy only the Free managed ruleset', () => {
    const { input } = read({ rules: [execute(FREE), execute(MANAGED), { ...execute(OWASP), enabled: false }] });
    const problems = entitlementProblems(input!, 'free');
    expect(problems.map((p) => [p.code, p.source?.pointer])).toEqual([[20204, '/rules/1/action_parameters/id'], [20204, '/rules/2/action_parameters/id']]);
    expect(problems[0]!.message).toContain(FREE);
    expect(entitlementProblems(input!, 'pro')).toEqual([]);
  });
});
