/**
 * Issue 31's property, bounded for `npm test`: whenever a plan (with pre-flight) has no error
 * finding, apply succeeds on the embedded engine and the next plan is empty. In-process; more
 * cases: `bench/plan-promise.ts`. Counterexamples found are kept as fixed cases below.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngineProvider, type EngineProvider } from '../../src/providers/engine/index.js';
import { checkCase, promiseCase, type PromiseCase } from '../../support/plan-promise.js';

let dir: string;
let provider: EngineProvider;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-promise-'));
  provider = await openEngineProvider({ stateDir: dir });
});
afterAll(async () => {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a plan is a promise', () => {
  it.each([
    // The measured refusals, as fixed cases: each is now refused at plan time.
    ['managed rulesets enabled on an unmigrated business zone', { tier: 'business', waf: 'previous', unmanaged: 0, rules: [{ action: 'block', paused: false }], custom: [], pages: [], managed: 'enabled', migration: 'absent' }, 'plan-error'],
    ['a Page Rule host outside the zone', { tier: 'pro', waf: 'new', unmanaged: 0, rules: [], custom: [], pages: ['other.example/d/*'], managed: 'none', migration: 'absent' }, 'invalid-manifest'],
    ['pending with nothing enabled', { tier: 'business', waf: 'previous', unmanaged: 0, rules: [], custom: [], pages: [], managed: 'disabled', migration: 'pending' }, 'plan-error'],
    ['the free quota already full', { tier: 'free', waf: 'new', unmanaged: 5, rules: [{ action: 'block', paused: false }], custom: [], pages: [], managed: 'none', migration: 'absent' }, 'plan-error'],
    ['a plan that applies', { tier: 'enterprise', waf: 'previous', unmanaged: 2, rules: [{ action: 'log', paused: false }], custom: ['block'], pages: ['{z}/a/*'], managed: 'enabled', migration: 'absent' }, 'applied'],
  ] as [string, PromiseCase, string][])('%s', async (_name, c, outcome) => {
    expect(await checkCase(provider, c)).toBe(outcome);
  });

  it('holds over generated manifests and zone states', async () => {
    await fc.assert(fc.asyncProperty(promiseCase, async (c) => { await checkCase(provider, c); }), { numRuns: 150, seed: 31 });
  }, 120_000);
});
