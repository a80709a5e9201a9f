'use strict';
// Makes V8's code cache of the CLI bundle (run by scripts/build-cli.mjs, in a process of its own):
// compiles the bundle without a cache, runs what users run most on the embedded engine (validate,
// apply, then a no-op plan of two example manifestss, in a temporary directory), then saves the code of
// every function compiled so far to dist/bundle/zonewall.cjs.cache (bin/cli-loader.cjs reads it).
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Bundle, loadCli } = require('../bin/cli-loader.cjs');

// Firewall rules with inline filters, and WAF custom rules: the examples the README starts with.
const Examples = ['quickstart.yaml', 'custom-rules.yaml'].map((name) => join(__dirname, '..', 'examples', name));

async function main() {
  const { cli, script } = loadCli({ cache: false });
  const dir = mkdtempSync(join(tmpdir(), 'zonewall-warm-'));
  try {
    const state = join(dir, 'state');
    for (const args of [['validate', ...Examples], ['apply', ...Examples, '--state-dir', state, '--auto-approve'], ['plan', ...Examples, '--state-dir', state]]) {
      const code = await cli.main(['node', 'zonewall', ...args]);
      if (code !== 0) throw new Error(`warm-up \`zonewall ${args[0]}\` exited ${code}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  writeFileSync(`${Bundle}.cache`, script.createCachedData());
}

main().catch((err) => {
  process.stderr.write(`warm-code-cache: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
