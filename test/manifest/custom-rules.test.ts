import { describe, expect, it } from 'vitest';
import { checkAgainstZone, formatIssue, validateManifestText } from '../../src/manifest/index.js';
import { doc } from './helpers/issues.js';

const issues = (text: string, tier?: 'free' | 'pro' | 'business' | 'enterprise') =>
  validateManifestText(text, 'zone.yaml', tier !== undefined ? { tier } : {}).issues.map(formatIssue);

describe('custom_rules in the manifest', () => {
  it('normalises rules in key order with the service defaults and sets in a fixed order', () => {
    const r = validateManifestText(doc(
      'zone: x',
      'custom_rules:',
      '  block-admin:',
      '    action: block',
      '    expression: http.request.uri.path   eq "/admin"',
      '    action_parameters: {response: {status_code: 429, content_type: text/plain, content: slow down}}',
      '  allow-office:',
      '    action: skip',
      '    expression: ip.src in {192.0.2.0/24}',
      '    action_parameters: {ruleset: current, products: [waf, bic], phases: [http_request_sbfm, http_ratelimit]}',
      '    enabled: false',
    ), 'zone.yaml');
    expect(r.issues).toEqual([]);
    expect(r.zone!.customRules!.map((c) => ({ ref: c.ref, action: c.action, expression: c.expression, enabled: c.enabled, logging: c.logging, p: c.actionParameters }))).toEqual([
      { ref: 'block-admin', action: 'block', expression: 'http.request.uri.path eq "/admin"', enabled: true, logging: undefined,
        p: { response: { status_code: 429, content_type: 'text/plain', content: 'slow down' } } },
      { ref: 'allow-office', action: 'skip', expression: 'ip.src in {192.0.2.0/24}', enabled: false, logging: { enabled: true },
        p: { ruleset: 'current', phases: ['http_ratelimit', 'http_request_sbfm'], products: ['bic', 'waf'] } },
    ]);
  });

  it('an empty section manages an empty phase; no section leaves it alone', () => {
    expect(validateManifestText(doc('zone: x', 'custom_rules: {}'), 'zone.yaml').zone!.customRules).toEqual([]);
    expect(validateManifestText(doc('zone: x'), 'zone.yaml').zone!.customRules).toBeUndefined();
  });

  it('places field and expression errors at their line and column', () => {
    expect(issues(doc(
      'zone: x',
      'custom_rules:',
      '  a:',
      '    action: allow',
      '    expression: http.host eq "x"',
      '  b:',
      '    action: block',
      '    expression: http.hots eq "x"',
      '  c:',
      '    action: block',
      '    expression: "true"',
      '    action_parameters: {response: {status_code: 503, content_type: text/plain, content: x}}',
      '  d:',
      '    action: challenge',
    ))).toEqual([
      expect.stringMatching(/^zone\.yaml:4:13: custom_rules\.a\.action: must be one of .*block/),
      'zone.yaml:8:17: custom_rules.b.expression: unknown identifier; did you mean "http.host"?',
      expect.stringMatching(/^zone\.yaml:12:\d+: custom_rules\.c\.action_parameters\.response\.status_code: /),
      expect.stringMatching(/^zone\.yaml:13:3: custom_rules\.d: .*expression/),
    ]);
  });

  it('refuses parameters and logging that do not go with the action', () => {
    expect(issues(doc(
      'zone: x',
      'custom_rules:',
      '  a:',
      '    action: challenge',
      '    expression: "true"',
      '    action_parameters: {products: [waf]}',
      '    logging: {enabled: false}',
      '  b:',
      '    action: skip',
      '    expression: "true"',
      '  c:',
      '    action: skip',
      '    expression: "true"',
      '    action_parameters: {response: {status_code: 403, content_type: text/plain, content: x}}',
    ))).toEqual([
      'zone.yaml:6:25: custom_rules.a.action_parameters.products: products is for skip rules only (this rule\'s action is challenge)',
      'zone.yaml:7:5: custom_rules.a.logging: logging is for skip rules only (this rule\'s action is challenge); remove it',
      'zone.yaml:9:13: custom_rules.b.action: a skip rule needs action_parameters with at least one of ruleset: current, phase: current, phases, products',
      expect.stringMatching(/^zone\.yaml:14:\d+: custom_rules\.c\.action_parameters: a skip rule needs/),
      expect.stringMatching(/^zone\.yaml:14:\d+: custom_rules\.c\.action_parameters\.response: response is for block rules only/),
    ]);
  });

  it('checks the plan tier: rule count (disabled rules too), log, matches, custom response', () => {
    const six = Array.from({ length: 6 }, (_, i) => [`  r${i}:`, '    action: block', `    expression: http.host eq "h${i}"`, ...(i === 0 ? ['    enabled: false'] : [])]).flat();
    expect(issues(doc('zone: x', 'custom_rules:', ...six), 'free')).toEqual([
      'zone.yaml:19:3: custom_rules.r5: the free plan allows 5 custom rules and this is rule 6 of 6 (disabled rules count too): remove 1, or use a higher plan',
    ]);
    const text = doc('zone: x', 'custom_rules:', '  audit:', '    action: log', '    expression: http.host matches "a"',
      '  page:', '    action: block', '    expression: "true"', '    action_parameters: {response: {status_code: 403, content_type: text/html, content: <p>no</p>}}');
    expect(issues(text, 'free')).toEqual([
      'zone.yaml:4:13: custom_rules.audit.action: log needs an Enterprise plan (the zone is on the free plan)',
      'zone.yaml:5:27: custom_rules.audit.expression: the matches operator needs a Business or Enterprise plan (the zone is on the free plan)',
      expect.stringMatching(/^zone\.yaml:9:25: custom_rules\.page\.action_parameters\.response: a custom block response needs a Pro plan or higher/),
    ]);
    const zone = validateManifestText(text, 'zone.yaml').zone!;
    expect(checkAgainstZone(zone, { plan: 'business' }).map((i) => i.path)).toEqual(['custom_rules.audit.action']);
    expect(checkAgainstZone(zone, { plan: 'enterprise' })).toEqual([]);
  });
});

describe('key order is evaluation order, whatever the keys look like', () => {
  // Keys like "20" and "3" are array indexes to JavaScript, which lists them first in numeric order:
  // the rules ran 3, 20, x where the manifest says 20, 3, x.
  const block = 'zone: example.com\nplan: enterprise\ncustom_rules:\n  "20": {action: block, expression: http.host eq "a"}\n  "3":\n    action: log\n    expression: http.host eq "b"\n  x: {action: log, expression: http.host eq "c"}\nrate_limiting_rules:\n  "9":\n    action: block\n    expression: http.host eq "a"\n    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 5, mitigation_timeout: 600}\n  "1":\n    action: block\n    expression: http.host eq "b"\n    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 5, mitigation_timeout: 600}\n';
  const flow = 'zone: example.com\nplan: enterprise\ncustom_rules: {"20": {action: block, expression: http.host eq "a"}, "3": {action: log, expression: http.host eq "b"}, x: {action: log, expression: http.host eq "c"}}\n';
  it('keeps custom and rate limiting rules in the order written (block and flow style)', () => {
    const a = validateManifestText(block, 'zone.yaml');
    expect(a.issues).toEqual([]);
    expect(a.zone!.customRules!.map((r) => r.ref)).toEqual(['20', '3', 'x']);
    expect(a.zone!.rateLimitingRules!.map((r) => r.ref)).toEqual(['9', '1']);
    const b = validateManifestText(flow, 'zone.yaml');
    expect(b.issues).toEqual([]);
    expect(b.zone!.customRules!.map((r) => r.ref)).toEqual(['20', '3', 'x']);
  });
});
