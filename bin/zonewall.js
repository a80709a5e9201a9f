#!/usr/bin/env node
// Thin launcher: checks the Node version (before loading anything that would fail obscurely on an
// older one), then runs the CLI bundle (dist/bundle/, esbuild, split per command so a command loads only
// the code it runs) built by `npm install` (prepare) or `npm run build`.
// The minimum is the one in package.json's `engines`: zlib.crc32 (the engine's storage) needs
// 20.15 and undici 7 declares 20.18.1.
const Minimum = [20, 18, 1];
const current = process.versions.node.split('.').map(Number);
const differs = Minimum.findIndex((n, i) => current[i] !== n);
if (differs !== -1 && current[differs] < Minimum[differs]) {
  process.stderr.write(`zonewall needs Node.js ${Minimum.join('.')} or newer; this is ${process.versions.node}. Install a newer Node.js (e.g. the current LTS) and try again.\n`);
  process.exit(1);
}

let cli;
try {
  cli = await import('../dist/bundle/zonewall.js');
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
    console.error('zonewall is not built yet: run `npm run build` (npm install does it) and try again.');
    process.exit(1);
  }
  throw err;
}

await cli.runCli(process.argv);
