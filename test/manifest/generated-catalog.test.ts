import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogPath, generateManagedCatalog } from '../../scripts/gen-catalog.js';
import { ManagedRulesetAliases, OwaspAnomalyRuleId, OwaspRulesetId } from '../../src/manifest/managed-rules/catalog.js';
import { ManagedCatalog } from '../../src/manifest/generated/managed-catalog.js';

describe('the manifest\'s generated view of the managed ruleset catalog', () => {
  it('is up to date with the engine\'s catalog (run `npm run gen` after changing it)', () => {
    expect(readFileSync(catalogPath, 'utf8')).toBe(generateManagedCatalog());
  });

  it('agrees with the manifest\'s aliases and OWASP names', () => {
    for (const [alias, id] of Object.entries(ManagedRulesetAliases)) expect(ManagedCatalog[id]?.alias).toBe(alias);
    expect(ManagedCatalog[OwaspRulesetId]!.scoreThresholdRules).toEqual([OwaspAnomalyRuleId]);
  });
});
