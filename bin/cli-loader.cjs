'use strict';
// Loads the CLI bundle (dist/bundle/zonewall.cjs: esbuild, one CommonJS file) with V8's code cache
// for it (dist/bundle/zonewall.cjs.cache, made by `npm run build` from a warm-up apply and plan:
// scripts/warm-code-cache.cjs). With the cache V8 neither parses the bundle nor compiles the
// functions a plan runs: a fifth of a small plan's whole run. A cache V8 rejects (another Node.js,
// other V8 flags) or a missing one only gives that time back: the bundle is compiled as usual.
// ES modules cannot be given a code cache on Node.js 20, hence CommonJS.
//
// V8 trusts a code cache it is given: it checks the source's length, not its text, and a damaged
// cache aborts the process. So the cache file starts with the CRC-32 of the bundle it was made from
// and of the cache bytes (`codeCacheFile`), and a cache whose CRCs do not match is not used.
const { readFileSync } = require('node:fs');
const { createRequire, wrap } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');
const { crc32 } = require('node:zlib');

const Bundle = join(__dirname, '..', 'dist', 'bundle', 'zonewall.cjs');

const CacheFile = `${Bundle}.cache`;
/** The cache file's header: CRC-32 of the bundle, then of the cache bytes (little-endian). */
const HeaderBytes = 8;

/** The cache file for `cachedData` made from the bundle `source` (a Buffer). */
function codeCacheFile(source, cachedData) {
  const header = Buffer.alloc(HeaderBytes);
  header.writeUInt32LE(crc32(source), 0);
  header.writeUInt32LE(crc32(cachedData), 4);
  return Buffer.concat([header, cachedData]);
}

/** The cache bytes for the bundle `source`, or undefined when there is no cache or it is not that bundle's, intact. */
function cachedDataFor(source) {
  let file;
  try {
    file = readFileSync(CacheFile);
  } catch {
    return undefined;
  }
  if (file.length <= HeaderBytes) return undefined;
  const data = file.subarray(HeaderBytes);
  return file.readUInt32LE(0) === crc32(source) && file.readUInt32LE(4) === crc32(data) ? data : undefined;
}

/** Compiles and runs the bundle (throws ENOENT when it is not built); `cache: false` ignores the code cache. */
function loadCli({ cache = true } = {}) {
  const bytes = readFileSync(Bundle);
  const source = bytes.toString('utf8');
  const cachedData = cache ? cachedDataFor(bytes) : undefined;
  // No `import()` in the bundle (the build refuses one): functions from a code cache have no loader for it.
  const script = new vm.Script(wrap(source), { filename: Bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(Bundle), module, Bundle, dirname(Bundle));
  return { cli: module.exports, script, source: bytes };
}

module.exports = { Bundle, CacheFile, codeCacheFile, loadCli };
