#!/usr/bin/env node
// Thin launcher: the CLI is built by `npm install` (prepare) or `npm run build` into one bundle
// split per command (dist/bundle/, esbuild), so a command loads only the code it runs.
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

cli.main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.message : String(err)); process.exitCode = 1; },
);
