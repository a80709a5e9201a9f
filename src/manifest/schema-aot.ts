/**
 * The module of the manifest validator compiled ahead of time: `npm run build` writes it to
 * dist/manifest/schema-validator.cjs (`scripts/build-cli.mjs`). Read from there at run time here;
 * the CLI bundle replaces this file with the validator itself, built in, so that V8's code cache of
 * the bundle covers it too. Its own file so the build can swap it whole.
 */
import { builtModule } from './built-module.js';

/** Where `npm run build` writes the standalone validator, from `dist/*\/`. */
const AheadOfTime = '../manifest/schema-validator.cjs';

/** The validator module (the function, with its `schemaHash`), or undefined when none was built (a run from sources). */
export function manifestValidatorModule(): unknown {
  return builtModule(AheadOfTime, import.meta.url);
}
