/**
 * `npm run bench -- plan-promise`: issue 31's property over many more generated cases than
 * `npm test` runs (`PROMISE_CASES`, default 2,000; `PROMISE_SEED` to repeat a run): whenever a plan
 * (with pre-flight) has no error finding, apply succeeds on the embedded engine and the next plan is
 * empty. Prints how the cases ended (invalid manifest, refused at plan time, applied) and the first
 * counterexample, if any, to keep as a fixed case in `test/apply/plan-promise.property.test.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { openEngineProvider } from '../src/providers/engine/index.js';
import { checkCase, promiseCase, type CaseOutcome } from '../support/plan-promise.js';

export async function run(): Promise<void> {
  const cases = Number(process.env.PROMISE_CASES ?? 2000);
  const seed = process.env.PROMISE_SEED !== undefined ? Number(process.env.PROMISE_SEED) : Date.now() % 1_000_000;
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-promise-'));
  const provider = await openEngineProvider({ stateDir: dir });
  const counts: Record<CaseOutcome, number> = { 'invalid-manifest': 0, 'plan-error': 0, applied: 0 };
  const start = performance.now();
  try {
    const details = await fc.check(fc.asyncProperty(promiseCase, async (c) => { counts[await checkCase(provider, c)]++; }), { numRuns: cases, seed });
    const ms = performance.now() - start;
    console.log(`plan-promise: ${cases} cases (seed ${seed}) in ${(ms / 1000).toFixed(1)} s: ${counts.applied} applied, ${counts['plan-error']} refused at plan time, ${counts['invalid-manifest']} invalid manifests`);
    if (details.failed) console.log(`COUNTEREXAMPLE: ${JSON.stringify(details.counterexample)}\n${String(details.errorInstance)}`);
    else console.log('no counterexample');
  } finally {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
