/**
 * Retired fields (src/manifest/deprecated-fields.ts): an expression that uses a field the service
 * no longer fills (`cf.threat_score`, always 0: security-phases.md §6) is valid, with a warning at
 * the field's line and column giving the reason; warnings never make a manifest invalid.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, loadManifests, validateManifestText } from '../../src/manifest/index.js';
import { doc } from './helpers/issues.js';

const z = 'zone: example.com';

describe('retired fields in expressions', () => {
  it('warn at the field, with the reason, in custom rules, inline filters and shared filters', () => {
    const text = doc(z, 'plan: enterprise',
      'custom_rules:',
      '  scanners:',
      '    action: block',
      '    expression: http.user_agent contains "masscan" or cf.threat_score gt 40',
      'filters:',
      '  risky: {expression: cf.threat_score lt 10}',
      'firewall_rules:',
      '  r:',
      '    action: block',
      '    filter: risky',
      '  s:',
      '    action: log',
      '    filter: {expression: "cf.threat_score ge 5 and http.host eq \\"cf.threat_score\\""}');
    // Twice: the second run meets the expressions in the process's memo and must warn all the same.
    for (let i = 0; i < 2; i++) {
      const result = validateManifestText(text, 'zone.yaml');
      expect(result.issues).toEqual([]);
      expect(result.zone).toBeDefined();
      expect(result.warnings.map(formatIssue)).toEqual([
        'zone.yaml:6:55: custom_rules.scanners.expression: cf.threat_score is retired: the service now always sets it to 0, so a "gt" comparison never matches and "lt" always does; use cf.waf.score or cf.bot_management.score instead',
        'zone.yaml:8:23: filters.risky.expression: cf.threat_score is retired: the service now always sets it to 0, so a "gt" comparison never matches and "lt" always does; use cf.waf.score or cf.bot_management.score instead',
        'zone.yaml:15:27: firewall_rules.s.filter.expression: cf.threat_score is retired: the service now always sets it to 0, so a "gt" comparison never matches and "lt" always does; use cf.waf.score or cf.bot_management.score instead',
      ]);
    }
  });

  it('leave a clean manifest without warnings, and reach loadManifests', async () => {
    expect(validateManifestText(doc(z, 'filters:', '  a: {expression: http.host eq "a.example"}'), 'zone.yaml').warnings).toEqual([]);
    const loaded = await loadManifests(['examples']);
    expect(loaded.errors).toEqual([]);
    expect(loaded.warnings).toEqual([]);
    // The upgrade example once used cf.threat_score gt 40, which can never match now.
    expect((await loadManifests(['examples/upgrade/zone.yaml'])).warnings).toEqual([]);
  });
});
