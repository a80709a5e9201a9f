/**
 * The second half of `npm run build` (after tsc wrote dist/ for the library entry points):
 * 1. the manifest JSON Schema compiled ahead of time: ajv standalone code generated from
 *    schemas/zone-manifest.schema.json into dist/manifest/schema-validator.cjs, with the fast path
 *    for valid manifests beside it (`quick`, src/manifest/schema-quick.ts), stamped with the
 *    schema's hash (generated at every build, never committed, so it cannot go stale; a schema
 *    edited after the build is compiled at run time instead, see src/manifest/schema.ts);
 * 2. the CLI bundled with esbuild into one CommonJS file, dist/bundle/zonewall.cjs, instead of ~600
 *    modules; commands are imported on demand inside it (`main.ts`), so a command runs only its own
 *    modules' top-level code. bin/zonewall.js runs it through bin/cli-loader.cjs;
 * 3. V8's code cache of that bundle (dist/bundle/zonewall.cjs.cache), made by a warm-up run of the
 *    bundle (scripts/warm-code-cache.cjs): a command starts without parsing or compiling what the
 *    warm-up ran. CommonJS because Node.js 20 takes a code cache only for scripts, not ES modules.
 *    better-sqlite3's JavaScript is inside (its native addon is loaded from node_modules, see
 *    `directAddon`), miniflare stays outside (a development dependency); re2js is
 *    loaded from node_modules at the first `matches` pattern compiled.
 *    Whitespace and syntax are minified (names kept, source maps written): less text to read and
 *    hash at every start. dist/bundle/ is emptied first, so no stale file stays.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The standalone module of a validator (CommonJS: `module.exports` is the function). */
function standalone(ajv, schema) {
  return standaloneCode.default ? standaloneCode.default(ajv, ajv.compile(schema)) : standaloneCode(ajv, ajv.compile(schema));
}

async function aheadOfTimeSchema() {
  const { createManifestAjv, manifestSchema, manifestSchemaHash } = await import(`${root}dist/manifest/schema.js`);
  const { createQuickAjv, quickManifestSchema } = await import(`${root}dist/manifest/schema-quick.js`);
  const full = standalone(createManifestAjv({ code: { source: true } }), manifestSchema);
  // The fast path for valid manifests (src/manifest/schema-quick.ts), a module of its own inside this one.
  const quick = standalone(createQuickAjv({ code: { source: true } }), quickManifestSchema(manifestSchema));
  const code = `${full}\nmodule.exports.quick = (() => { const module = { exports: {} };\n${quick}\nreturn module.exports; })();\n`;
  // Every run of a manifest command loads it: minified (whitespace and syntax), it is less to parse.
  const { code: small } = await transform(code, { loader: 'js', format: 'cjs', minifyWhitespace: true, minifySyntax: true });
  writeFileSync(`${root}dist/manifest/schema-validator.cjs`, `${small}\nmodule.exports.schemaHash = ${JSON.stringify(manifestSchemaHash)};\n`);
  // The cases file's validator (`zonewall test`), the same way: compiling it at run time was ~15% of a test run.
  const { createPolicyAjv, policyTestsSchema, policyTestsSchemaHash } = await import(`${root}dist/policy/schema.js`);
  const policy = standalone(createPolicyAjv({ code: { source: true } }), policyTestsSchema);
  const { code: policySmall } = await transform(policy, { loader: 'js', format: 'cjs', minifyWhitespace: true, minifySyntax: true });
  writeFileSync(`${root}dist/policy/schema-validator.cjs`, `${policySmall}\nmodule.exports.schemaHash = ${JSON.stringify(policyTestsSchemaHash)};\n`);
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
 * The manifest and cases-file validators compiled ahead of time (step 1) are built into the bundle,
 * in place of src/manifest/schema-aot.ts and src/policy/schema-aot.ts, which read them from dist/ at
 * run time: inside the bundle they are covered by the code cache (the manifest's is 130 KB of
 * JavaScript every manifest command runs).
 */
const builtInValidator = {
  name: 'built-in-validator',
  setup(b) {
    b.onLoad({ filter: /src[\\/](manifest|policy)[\\/]schema-aot\.ts$/ }, (args) => ({
      // The function each file exports: manifestValidatorModule (src/manifest), casesValidatorModule (src/policy).
      contents: ((policy) => `export function ${policy ? 'casesValidatorModule' : 'manifestValidatorModule'}() { return require(${JSON.stringify(`${root}dist/${policy ? 'policy' : 'manifest'}/schema-validator.cjs`)}); }`)(/policy[\\/]schema-aot/.test(args.path)),
      loader: 'js',
    }));
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

/**
 * commander requires node:child_process (with node:net and node:dgram behind it) at load, for
 * executable subcommands, which zonewall has none of: in the bundle it is required at its first
 * use instead, so no command pays for loading it.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${args.path}: commander no longer requires node:child_process as expected; update lazyChildProcess`);
      const lazy = "let childProcessLoaded; const childProcess = { spawn: (...a) => (childProcessLoaded ??= require('node:child_process')).spawn(...a) };";
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * better-sqlite3 finds its native addon with the `bindings` package, which works out the calling
 * package's root from a stack trace and then tries a dozen paths: ~2 ms of every start, and inside
 * the bundle the root it finds is zonewall's, not better-sqlite3's. Bundled, its JavaScript is in
 * the code cache (required from node_modules it was compiled at every start, ~8 ms); the addon is
 * required from where better-sqlite3's install puts it, and any other layout goes through
 * `bindings` told better-sqlite3's own root.
 */
const directAddon = {
  name: 'direct-addon',
  setup(b) {
    b.onResolve({ filter: /^bindings$/ }, (args) =>
      args.namespace === 'direct-addon' ? { path: 'bindings', external: true } : { path: 'bindings', namespace: 'direct-addon' });
    b.onLoad({ filter: /.*/, namespace: 'direct-addon' }, () => ({
      contents: `const { dirname, join } = require('node:path');
module.exports = function bindings(name) {
  const root = dirname(require.resolve('better-sqlite3/package.json'));
  try {
    return require(join(root, 'build', 'Release', name));
  } catch (err) {
    if (err === null || typeof err !== 'object' || err.code !== 'MODULE_NOT_FOUND') throw err;
    return require('bindings')({ bindings: name, module_root: root });
  }
};`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

async function bundleCli() {
  rmSync(`${root}dist/bundle`, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: [`${root}src/cli/main.ts`],
    outfile: `${root}dist/bundle/zonewall.cjs`,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // miniflare (serve --runtime workerd) is loaded on demand from node_modules, with its workerd binary
    external: ['miniflare', 'better-sqlite3/package.json'],
    // Modules find their files (schemas, the ahead-of-time validator, the Worker) from import.meta.url:
    // in the bundle, that is the bundle's own URL (every module sits in dist/bundle/).
    define: { 'import.meta.url': '__zwModuleUrl' },
    banner: { js: "const __zwModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    // Less text for V8 to read at every start: whitespace and syntax only, names kept for stack
    // traces and error names.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    logLevel: 'warning',
    plugins: [builtInValidator, schemaPaths, lazyRe2js, lazyChildProcess, directAddon],
    metafile: true,
  });
  // On Node.js 20 a function compiled from a code cache has no module loader for `import()`: it
  // fails at run time. Dependencies loaded on demand are required instead (createRequire).
  for (const [name, output] of Object.entries(metafile.outputs)) {
    const dynamic = output.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
    if (dynamic.length > 0) throw new Error(`${name} has import() of ${dynamic.join(', ')}: require it instead (see bin/cli-loader.cjs)`);
  }
}

/** The code cache, from a warm-up run in a process of its own (it must compile the bundle afresh). */
function warmCodeCache() {
  try {
    execFileSync(process.execPath, [`${root}scripts/warm-code-cache.cjs`], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    process.stderr.write(String(err.stderr ?? ''));
    throw new Error('the code cache warm-up failed (see above)');
  }
}

await aheadOfTimeSchema();
await bundleCli();
warmCodeCache();
