'use strict';
// Makes V8's code cache of the CLI bundle (run by scripts/build-cli.mjs, in a process of its own):
// applies two example manifests to a temporary embedded engine, then compiles the bundle without a
// cache, runs what users run most (a no-op plan of those zones) and saves the code of every function
// compiled so far to dist/bundle/zonewall.cjs.cache, stamped with the bundle's CRC (bin/cli-loader.cjs).
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { CacheFile, codeCacheFile, loadCli } = require('../bin/cli-loader.cjs');

// Firewall rules with inline filters, and WAF custom rules: the examples the README starts with; and a
// zone with one of each expression form real zones write (scripts/warm-up-zone.yaml), so that the
// code that parses and plans them is in the cache too, not compiled at each start.
const Examples = [
  ...['quickstart.yaml', 'custom-rules.yaml'].map((name) => join(__dirname, '..', 'examples', name)),
  join(__dirname, 'warm-up-zone.yaml'),
];

async function main() {
  const { cli, script, source } = loadCli({ cache: false });
  const dir = mkdtempSync(join(tmpdir(), 'zonewall-warm-'));
  try {
    const state = join(dir, 'state');
    // The zones are made by a run of the CLI of its own: the cache holds what a plan runs, not apply's
    // writes (every function in it is deserialised at every start, whether the command runs it or not).
    execFileSync(process.execPath, [join(__dirname, '..', 'bin', 'zonewall.js'), 'apply', ...Examples, '--state-dir', state, '--auto-approve'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const code = await cli.main(['node', 'zonewall', 'plan', ...Examples, '--state-dir', state]);
    if (code !== 0) throw new Error(`the warm-up plan exited ${code}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  writeFileSync(CacheFile, codeCacheFile(source, script.createCachedData()));
}

main().catch((err) => {
  process.stderr.write(`warm-code-cache: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
