/**
 * A module `npm run build` writes to dist/ beside the compiled sources (the validators compiled
 * ahead of time: `schema-aot.ts` here and in src/policy), read at run time; undefined when none was
 * built (a run from sources). The CLI bundle builds those modules in instead (`scripts/build-cli.mjs`).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The module at `path`, relative to the file whose `import.meta.url` is `from`, or undefined.
 * @example builtModule('../manifest/schema-validator.cjs', import.meta.url)
 */
export function builtModule(path: string, from: string): unknown {
  try {
    return createRequire(from)(fileURLToPath(new URL(path, from))) as unknown;
  } catch {
    return undefined;
  }
}
