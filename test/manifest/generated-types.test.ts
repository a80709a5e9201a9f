import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateManifestTypes, typesPath } from '../../scripts/gen-types.js';

describe('generated manifest types', () => {
  it('are up to date with the schema (run `npm run gen` after changing the schema)', async () => {
    const committed = readFileSync(typesPath, 'utf8');
    expect(committed).toBe(await generateManifestTypes());
  });
});
