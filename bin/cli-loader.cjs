'use strict';
// Loads the CLI bundle (dist/bundle/zonewall.cjs: esbuild, one CommonJS file) with V8's code cache
// for it (dist/bundle/zonewall.cjs.cache, made by `npm run build` from a warm-up apply and plan:
// scripts/warm-code-cache.cjs). With the cache V8 neither parses the bundle nor compiles the
// functions a plan runs: a fifth of a small plan's whole run. A cache V8 rejects (another Node.js,
// other V8 flags) or a missing one only gives that time back: the bundle is compiled as usual.
// ES modules cannot be given a code cache on Node.js 20, hence CommonJS.
const { readFileSync } = require('node:fs');
const { createRequire, wrap } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const Bundle = join(__dirname, '..', 'dist', 'bundle', 'zonewall.cjs');

/** Compiles and runs the bundle (throws ENOENT when it is not built); `cache: false` ignores the code cache. */
function loadCli({ cache = true } = {}) {
  const source = readFileSync(Bundle, 'utf8');
  let cachedData;
  if (cache) {
    try {
      cachedData = readFileSync(`${Bundle}.cache`);
    } catch {
      // No cache: compile.
    }
  }
  // No `import()` in the bundle (the build refuses one): functions from a code cache have no loader for it.
  const script = new vm.Script(wrap(source), { filename: Bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(Bundle), module, Bundle, dirname(Bundle));
  return { cli: module.exports, script };
}

module.exports = { Bundle, loadCli };
