/**
 * Duplicate filter expressions (src/manifest/check-expressions.ts): the first filter of each
 * expression is kept between manifests and taken over by the next one, so a manifest must find its
 * own duplicates only, whatever the manifests checked before it held.
 */
import { describe, expect, it } from 'vitest';
import { doc, issuesOf } from './helpers/issues.js';

const z = 'zone: example.com';
const same = 'same expression as';

describe('duplicate filter expressions across manifests', () => {
  it('are found in each manifest alone, whatever the manifests before held', () => {
    const once = doc(z, 'filters:', '  a: {expression: http.host eq "dup.example"}', '  b: {expression: http.host eq "other.example"}');
    const twice = doc(z, 'filters:', '  x: {expression: http.host eq "other.example"}', '  y: {expression: http.host eq "dup.example"}',
      'firewall_rules:', '  r:', '    action: block', '    filter: {expression: http.host  eq  "dup.example"}');
    const inlineFirst = doc(z, 'firewall_rules:', '  p:', '    action: block', '    filter: {expression: http.host eq "dup.example"}',
      '  q:', '    action: log', '    filter: {expression: http.host eq "dup.example"}');
    expect(issuesOf(once)).toEqual([]);
    expect(issuesOf(twice)).toEqual([
      `zone.yaml:8:26: firewall_rules.r.filter.expression: ${same} filters.y (line 4); the service refuses duplicate filters: use filter: y instead`,
    ]);
    expect(issuesOf(once)).toEqual([]);
    expect(issuesOf(inlineFirst)).toEqual([
      `zone.yaml:8:26: firewall_rules.q.filter.expression: ${same} firewall_rules.p.filter (line 5); the service refuses duplicate filters: keep one and share it between rules`,
    ]);
    expect(issuesOf(twice).length).toBe(1);
  });
});
