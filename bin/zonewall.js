#!/usr/bin/env node
// Thin launcher: checks the Node version (before loading anything that would fail obscurely on an
// older one), then runs the CLI bundle (dist/bundle/zonewall.cjs with its V8 code cache, see
// cli-loader.cjs) built by `npm install` (prepare) or `npm run build`.
// CommonJS (bin/package.json), not an ES module: an ES module entry makes Node load and start its
// module loader first, ~6 ms of every run.
// The minimum is the one in package.json's `engines`: zlib.crc32 (the engine's storage) needs
// 20.15 and undici 7 declares 20.18.1.
'use strict';

const Minimum = [20, 18, 1];
const current = process.versions.node.split('.').map(Number);
const differs = Minimum.findIndex((n, i) => current[i] !== n);
if (differs !== -1 && current[differs] < Minimum[differs]) {
  process.stderr.write(`zonewall needs Node.js ${Minimum.join('.')} or newer; this is ${process.versions.node}. Install a newer Node.js (e.g. the current LTS) and try again.\n`);
  process.exit(1);
}

let cli;
try {
  cli = require('./cli-loader.cjs').loadCli().cli;
} catch (err) {
  if (err && err.code === 'ENOENT' && String(err.path).includes('dist')) {
    console.error('zonewall is not built yet: run `npm run build` (npm install does it) and try again.');
    process.exit(1);
  }
  throw err;
}

// runCli reports every error itself and sets the exit code.
void cli.runCli(process.argv);
