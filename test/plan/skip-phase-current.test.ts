/**
 * `phase: current` on a skip rule (issue 33; the client's `SkipRule.ActionParameters.phase`): the
 * manifest schema accepts it, and it round-trips through plan, apply (the embedded engine) and export.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyZone } from '../../src/apply/index.js';
import { validateManifestText } from '../../src/manifest/index.js';
import { diffZone, exportManifest, readsFor, renderManifestYaml } from '../../src/plan/index.js';
import { openProvider } from '../../src/providers/index.js';

const text = `zone: skip-phase.example
plan: business
custom_rules:
  office:
    action: skip
    expression: ip.src in {192.0.2.0/24}
    action_parameters: { phase: current, products: [waf] }
  admin:
    action: block
    expression: starts_with(http.request.uri.path, "/admin")
`;

const dir = mkdtempSync(join(tmpdir(), 'zw-skip-phase-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('skip phase: current', () => {
  it('validates, applies, plans empty afterwards and exports as written', async () => {
    const validated = validateManifestText(text, 'zone.yaml');
    expect(validated.issues).toEqual([]);
    const desired = validated.zone!;
    expect(desired.customRules?.[0]?.actionParameters).toEqual({ phase: 'current', products: ['waf'] });
    const provider = await openProvider({ stateDir: join(dir, 'state') });
    try {
      const { zone } = await provider.resolveZone(desired.zone, { create: { plan: 'business' } });
      const first = diffZone(desired, await provider.readZone(zone.id, readsFor(desired)));
      expect((await applyZone(first, provider, { force: true })).ok).toBe(true);
      const live = await provider.readZone(zone.id);
      expect(live.customEntrypoint?.rules[0]?.action_parameters).toEqual({ phase: 'current', products: ['waf'] });
      expect(diffZone(desired, live).changes.filter((c) => c.action !== 'no-op')).toEqual([]);
      const exported = exportManifest(live);
      expect(exported.document.custom_rules?.office?.action_parameters).toEqual({ phase: 'current', products: ['waf'] });
      const again = validateManifestText(renderManifestYaml(exported.document, { schema: '../schemas/zone-manifest.schema.json' }), 'exported.yaml');
      expect(again.issues).toEqual([]);
      expect(diffZone(again.zone!, live).changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    } finally {
      await provider.close();
    }
  });

  it('is refused on a rule that is not a skip, at its key', () => {
    const r = validateManifestText('zone: x\ncustom_rules:\n  r:\n    action: block\n    expression: "true"\n    action_parameters: { phase: current }\n', 'zone.yaml');
    expect(r.issues.map((i) => `${i.line}:${i.path}: ${i.message}`)).toEqual(['6:custom_rules.r.action_parameters.phase: phase is for skip rules only (this rule\'s action is block)']);
  });
});
