import { adoptionParts } from './fixtures.js';
import { describe, expect, it } from 'vitest';
import { validateManifestText } from '../../src/manifest/index.js';
import { diffZone, exportManifest, renderManifestYaml, type LiveCustomRule } from '../../src/plan/index.js';
import { customEntry, hex, lCustom, live } from './fixtures.js';

/** Dashboard-made rules: no ref of their own (the API shows the id). */
const dashboard: LiveCustomRule[] = [
  lCustom('r1', 'http.request.uri.path contains "/wp-login.php"', { ref: hex('r1'), description: 'Block WordPress logins' }),
  lCustom('r2', '(ip.src in {192.0.2.0/24})', { ref: hex('r2'), action: 'skip', action_parameters: { ruleset: 'current', products: ['waf'] }, logging: { enabled: false } }),
  lCustom('r3', 'cf.threat_score gt 30', { ref: undefined, action: 'managed_challenge', enabled: false, description: 'Block WordPress logins' }),
  lCustom('r4', 'http.host eq "x"', { ref: 'kept-key', action: 'block', action_parameters: { response: { status_code: 418, content_type: 'text/plain', content: 'no' } } }),
];

describe('export of custom rules', () => {
  it('writes custom_rules in list order, adopts every rule keeping its id, and the next plan is empty', () => {
    const zone = live({ customEntrypoint: customEntry(dashboard) });
    const result = exportManifest(zone);
    expect(Object.keys(result.document.custom_rules!)).toEqual(['block-wordpress-logins', 'rule-72320000', 'block-wordpress-logins-2', 'kept-key']);
    expect(result.document.custom_rules!['rule-72320000']).toEqual({ action: 'skip', expression: '(ip.src in {192.0.2.0/24})', logging: { enabled: false }, action_parameters: { ruleset: 'current', products: ['waf'] } });
    const put = adoptionParts(result.adoption).customRules!;
    expect(put.rules.map((r) => [r.id, r.ref])).toEqual([[hex('r1'), 'block-wordpress-logins'], [hex('r2'), 'rule-72320000'], [hex('r3'), 'block-wordpress-logins-2'], [hex('r4'), 'kept-key']]);
    // The adoption as the service applies it: same rules, same ids, new refs.
    const adopted = live({ customEntrypoint: customEntry(dashboard.map((r, i) => ({ ...r, ref: put.rules[i]!.ref }))) });
    const text = renderManifestYaml(result.document, { schema: '../schemas/zone-manifest.schema.json' });
    const validated = validateManifestText(text, 'zone.yaml');
    expect(validated.issues).toEqual([]);
    const plan = diffZone(validated.zone!, adopted);
    expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('leaves out a rule the manifest cannot express and disowns its ref so plans keep it', () => {
    const odd = lCustom('odd', 'true', { ref: 'odd', action: 'execute', action_parameters: { id: 'x' } as never });
    const result = exportManifest(live({ customEntrypoint: customEntry([dashboard[3]!, odd]) }));
    expect(result.skipped).toEqual([expect.objectContaining({ kind: 'custom_rule', id: hex('odd'), reason: expect.stringContaining('action execute') })]);
    expect(adoptionParts(result.adoption).customRules!.rules.map((r) => r.ref)).toEqual(['kept-key', hex('odd')]);
  });

  it('writes no adoption when every rule already carries its key, and no section without an entry point', () => {
    expect(adoptionParts(exportManifest(live({ customEntrypoint: customEntry([dashboard[3]!]) })).adoption).customRules).toBeNull();
    expect(exportManifest(live({ customEntrypoint: null })).document.custom_rules).toBeUndefined();
  });
});
