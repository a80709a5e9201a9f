import { describe, expect, it } from 'vitest';
import {
  OwaspSensitivityMapping,
  mapOwaspActionMode,
  mapOwaspSensitivity,
  owaspOverrides,
  paranoiaLevelOverrides,
} from '../../../src/engine/migration/owasp-mapping.js';

describe('OWASP migration mapping (seed 002 table)', () => {
  it.each([
    ['high', 2, 'medium', 40],
    ['medium', 1, 'high', 25],
    ['low', 1, 'medium', 40],
    ['default', 2, 'medium', 40],
  ] as const)('%s -> PL%i, %s (%i or higher)', (old, pl, name, score) => {
    expect(mapOwaspSensitivity(old)).toEqual({ paranoia_level: pl, threshold_name: name, score_threshold: score });
  });

  it('maps a sensitivity that was never set with the Default row', () => {
    expect(mapOwaspSensitivity(null)).toBe(OwaspSensitivityMapping.default);
  });

  it('maps actions directly except simulate, which becomes log', () => {
    expect([mapOwaspActionMode('simulate'), mapOwaspActionMode('block'), mapOwaspActionMode('challenge'), mapOwaspActionMode(null)])
      .toEqual(['log', 'block', 'challenge', 'challenge']);
  });

  it('sets a paranoia level by disabling every higher level', () => {
    expect(paranoiaLevelOverrides(1).map((c) => c.category)).toEqual(['paranoia-level-2', 'paranoia-level-3', 'paranoia-level-4']);
    expect(paranoiaLevelOverrides(2)).toEqual([{ category: 'paranoia-level-3', enabled: false }, { category: 'paranoia-level-4', enabled: false }]);
    expect(paranoiaLevelOverrides(4)).toEqual([]);
  });

  it('puts threshold and action on rule 949110', () => {
    expect(owaspOverrides(mapOwaspSensitivity('medium'), 'log')).toEqual({
      categories: paranoiaLevelOverrides(1),
      rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 25, action: 'log' }],
    });
  });
});
