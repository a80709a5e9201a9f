// Runs the zonewall CLI from source: `node --import tsx test/policy/zonewall-cli.ts ARGS...` is
// `zonewall ARGS...` without a build (bin/zonewall.js runs the compiled dist/, which only
// `npm run build` refreshes). Used by the e2e tests of `zonewall test` and the CI recipes.
import { main } from '../../src/cli/main.js';

process.exitCode = await main(['node', 'zonewall', ...process.argv.slice(2)]);
