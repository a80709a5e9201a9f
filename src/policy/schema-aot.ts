/**
 * The module of the cases-file validator compiled ahead of time: `npm run build` writes it to
 * dist/policy/schema-validator.cjs (`scripts/build-cli.mjs`), as it does the manifest's
 * (`src/manifest/schema-aot.ts`). Read from there at run time here; the CLI bundle replaces this file
 * with the validator itself, built in. Its own file so the build can swap it whole.
 */
import { builtModule } from '../manifest/index.js';

/** Where `npm run build` writes the standalone validator, from `dist/*\/`. */
const AheadOfTime = '../policy/schema-validator.cjs';

/** The validator module (the function, with its `schemaHash`), or undefined when none was built (a run from sources). */
export function casesValidatorModule(): unknown {
  return builtModule(AheadOfTime, import.meta.url);
}
