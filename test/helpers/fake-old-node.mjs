// Preloaded with `node --import` by test/cli/node-version.test.ts: makes this process report an
// older Node.js (20.11.0, the minimum the README once stated) to zonewall's start-up check.
Object.defineProperty(process.versions, 'node', { value: '20.11.0' });
