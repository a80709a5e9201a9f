/**
 * The second half of `npm run build` (after tsc wrote dist/ for the library entry points):
 * 1. the manifest JSON Schema compiled ahead of time: ajv standalone code generated from
 *    schemas/zone-manifest.schema.json into dist/manifest/schema-validator.cjs, stamped with the
 *    schema's hash (generated at every build, never committed, so it cannot go stale; a schema
 *    edited after the build is compiled at run time instead, see src/manifest/schema.ts);
 * 2. the CLI bundled with esbuild into dist/bundle/ (ES modules, split per command), so a command
 *    loads a few files holding only what it runs instead of ~600 modules. bin/zonewall.js runs it.
 *    better-sqlite3 stays outside (a native addon), and miniflare (a development dependency); re2js is
 *    loaded from node_modules at the first `matches` pattern compiled.
 *    Whitespace and syntax are minified (names kept, source maps written): `plan` parses 0.94 MB of
 *    JavaScript at start instead of 1.4 MB. dist/bundle/ is emptied first, so no stale chunk stays.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));

async function aheadOfTimeSchema() {
  const { createManifestAjv, manifestSchema, manifestSchemaHash } = await import(`${root}dist/manifest/schema.js`);
  const ajv = createManifestAjv({ code: { source: true } });
  const validate = ajv.compile(manifestSchema);
  const code = standaloneCode.default ? standaloneCode.default(ajv, validate) : standaloneCode(ajv, validate);
  // Every run of a manifest command loads it: minified (whitespace and syntax), it is less to parse.
  const { code: small } = await transform(code, { loader: 'js', format: 'cjs', minifyWhitespace: true, minifySyntax: true });
  writeFileSync(`${root}dist/manifest/schema-validator.cjs`, `${small}\nmodule.exports.schemaHash = ${JSON.stringify(manifestSchemaHash)};\n`);
}

/** Schema files are read relative to each module; in the bundle every module sits in dist/bundle/. */
const schemaPaths = {
  name: 'schema-paths',
  setup(b) {
    b.onLoad({ filter: /src[\\/].*\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replace(/new URL\('(?:\.\.\/)+schemas\//g, "new URL('../../schemas/"), loader: 'ts' };
    });
  },
};

/**
 * re2js (260 KB of the 1 MB `plan` loads) runs only when a `matches` pattern is compiled, and most
 * manifests have none. In the bundle, src/expr/regex.ts gets a stand-in whose `RE2JS.compile` loads
 * the package from node_modules (a dependency, like better-sqlite3) at its first call, so a plan
 * without `matches` never parses or evaluates it. regex.ts uses nothing of re2js but `compile`.
 */
const lazyRe2js = {
  name: 'lazy-re2js',
  setup(b) {
    b.onResolve({ filter: /^re2js$/ }, (args) =>
      args.namespace === 'lazy-re2js' ? { path: 're2js', external: true } : { path: 're2js', namespace: 'lazy-re2js' });
    b.onLoad({ filter: /.*/, namespace: 'lazy-re2js' }, () => ({
      contents: "let loaded; export const RE2JS = { compile: (...args) => (loaded ??= require('re2js').RE2JS).compile(...args) };",
      loader: 'js',
      resolveDir: root,
    }));
  },
};

async function bundleCli() {
  // Chunk names carry content hashes: without a clean start, every build's old chunks pile up.
  rmSync(`${root}dist/bundle`, { recursive: true, force: true });
  await build({
    entryPoints: { zonewall: `${root}src/cli/main.ts` },
    outdir: `${root}dist/bundle`,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // miniflare (serve --runtime workerd) is loaded on demand from node_modules, with its workerd binary
    external: ['better-sqlite3', 'miniflare'],
    // Bundled CommonJS dependencies (ajv, ...) call require(): give the ES module one.
    banner: { js: "import { createRequire as __zwCreateRequire } from 'node:module'; const require = __zwCreateRequire(import.meta.url);" },
    // Less text for V8 to parse at every start (the plan command loads about 1.4 MB of JavaScript):
    // whitespace and syntax only, names kept for stack traces and error names.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    logLevel: 'warning',
    plugins: [schemaPaths, lazyRe2js],
  });
}

await aheadOfTimeSchema();
await bundleCli();
