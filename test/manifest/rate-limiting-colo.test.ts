/**
 * `cf.colo.id` in a rate limiting rule's expression or counting expression: the engine refuses it
 * saying it is a characteristic (counters are per data center); the manifest said only "unknown
 * identifier". Now both say why, at the field, and the text inside a string literal passes. And a
 * characteristic the zone's plan lacks is refused at its item (it was the `characteristics` key).
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, validateManifestText } from '../../src/manifest/index.js';
import { doc } from './helpers/issues.js';

const issues = (text: string) => validateManifestText(text, 'zone.yaml').issues.map(formatIssue);
const rule = (expression: string, counting?: string) => doc(
  'zone: x', 'rate_limiting_rules:', '  r:', '    action: block', `    expression: ${expression}`, '    ratelimit:',
  '      characteristics: [ip.src]', '      period: 10', '      requests_per_period: 5', '      mitigation_timeout: 10',
  ...(counting === undefined ? [] : [`      counting_expression: ${counting}`]),
);
const why = "unknown identifier; cf.colo.id may not appear in a rate limiting rule's expressions: it is a characteristic, which zonewall adds (counters are per data center)";

describe('cf.colo.id in rate limiting expressions', () => {
  it('is refused in the expression, at the field, saying it is a characteristic', () => {
    expect(issues(rule('http.request.uri.path eq "/" and cf.colo.id eq 1'))).toEqual([`zone.yaml:5:50: rate_limiting_rules.r.expression: ${why}`]);
  });

  it('is refused in the counting expression, at the field', () => {
    expect(issues(rule('http.request.uri.path eq "/"', 'cf.colo.id eq 5'))).toEqual([`zone.yaml:11:28: rate_limiting_rules.r.ratelimit.counting_expression: ${why}`]);
  });

  it('inside a string literal it is text, and another unknown field keeps its own message', () => {
    expect(issues(rule('http.request.uri.path eq "cf.colo.id"', 'http.request.uri.path eq "cf.colo.id"'))).toEqual([]);
    expect(issues(rule('cf.colo.idx eq 1'))[0]).not.toContain('characteristic');
  });
});

describe('a characteristic the plan lacks', () => {
  it('is refused at the item, as the engine points at /ratelimit/characteristics/N', () => {
    const text = doc(
      'zone: x', 'plan: business', 'rate_limiting_rules:', '  r:', '    action: block', '    expression: http.request.uri.path eq "/"', '    ratelimit:',
      '      characteristics: [cf.unique_visitor_id, ip.src.asnum, \'http.request.headers["x-key"]\']', '      period: 10', '      requests_per_period: 5', '      mitigation_timeout: 10',
    );
    expect(issues(text)).toEqual([
      'zone.yaml:8:47: rate_limiting_rules.r.ratelimit.characteristics[1]: the characteristic ip.src.asnum needs the enterprise plan or higher (the zone is on the business plan)',
      'zone.yaml:8:61: rate_limiting_rules.r.ratelimit.characteristics[2]: the characteristic http.request.headers["x-key"] needs the enterprise plan or higher (the zone is on the business plan)',
    ]);
  });
});
