/**
 * Part of `npm run gen`: writes `src/manifest/generated/managed-catalog.ts`, the manifest's view of
 * the engine's managed ruleset catalog (`src/engine/catalog`): per ruleset, its alias, name, rule
 * ids, categories (tags) and the rules that take a `score_threshold`. The engine's catalog is the one
 * source of truth; the manifest may not import the engine (DESIGN.md), so it reads this generated,
 * committed copy, and `test/manifest/generated-catalog.test.ts` fails when the copy is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ManagedRulesets, rulesetCategories } from '../src/engine/catalog/index.js';

/** The generated, committed TypeScript file. */
export const catalogPath = fileURLToPath(new URL('../src/manifest/generated/managed-catalog.ts', import.meta.url));

const banner = `/**
 * The managed ruleset catalog as the manifest sees it, generated from src/engine/catalog by
 * \`npm run gen\` (scripts/gen-catalog.ts). Do not edit: change the engine's catalog and regenerate.
 * test/manifest/generated-catalog.test.ts fails when this file is stale.
 */`;

/** Returns the TypeScript source generated from the engine's catalog. */
export function generateManagedCatalog(): string {
  const list = (items: readonly string[]) => `[${items.map((i) => `'${i}'`).join(', ')}]`;
  const entries = ManagedRulesets.map((rs) => [
    `  '${rs.id}': {`,
    `    alias: '${rs.alias}',`,
    `    name: ${JSON.stringify(rs.name).replace(/'/g, "\\'").replace(/^"|"$/g, "'")},`,
    `    rules: ${list(rs.rules.map((r) => r.id))},`,
    `    categories: ${list(rulesetCategories(rs))},`,
    `    scoreThresholdRules: ${list(rs.rules.filter((r) => r.score_threshold !== undefined).map((r) => r.id))},`,
    '  },',
  ].join('\n'));
  return `${banner}

/** One managed ruleset: what a manifest may name in its overrides. */
export interface ManagedCatalogEntry {
  readonly alias: string;
  readonly name: string;
  readonly rules: readonly string[];
  readonly categories: readonly string[];
  /** Rules that take a \`score_threshold\` override (OWASP 949110). */
  readonly scoreThresholdRules: readonly string[];
}

/** Managed rulesets by id. */
export const ManagedCatalog: Readonly<Record<string, ManagedCatalogEntry>> = {
${entries.join('\n')}
};
`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(catalogPath, generateManagedCatalog());
  console.log(`wrote ${catalogPath}`);
}
