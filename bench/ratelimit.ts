/**
 * `npm run bench -- ratelimit`: `zonewall test` of rate limiting rules against a burst. A manifest
 * of 100 rate limiting rules (one per API endpoint, counting per client IP), and one burst case of
 * 1,000,000 simulated requests across 10,000 client keys (each key one IP and one endpoint), run
 * through `runOffline` as `zonewall test` runs it: 10,000 distinct requests through the custom and
 * rate limiting rules' expressions once each, then every request through the shared counting core.
 * Printed beside a floor measured in the same run: counting the same 1,000,000 keys in a plain Map.
 * Target (issue 29): at most 3x the floor. Peak memory (max RSS) printed.
 * `BENCH_RATELIMIT_REQUESTS=20000 npm run bench -- ratelimit` runs it small.
 */
import { validateManifestText } from '../src/manifest/index.js';
import { buildZoneModel, runOffline, type TestCase } from '../src/policy/index.js';

const Rules = 100;
const Keys = 10_000;
const Requests = Number(process.env.BENCH_RATELIMIT_REQUESTS ?? 1_000_000);

function manifestText(): string {
  const lines = ['zone: bench.example.com', 'plan: enterprise', 'rate_limiting_rules:'];
  for (let n = 0; n < Rules; n++) {
    lines.push(`  api-${n}:`, '    action: block', `    expression: http.request.uri.path eq "/api/${n}"`,
      '    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 100, mitigation_timeout: 60}');
  }
  return `${lines.join('\n')}\n`;
}

const ipOf = (j: number): string => `10.${(j >> 16) & 255}.${(j >> 8) & 255}.${j & 255}`;

function burstCase(): TestCase {
  const ip = Array.from({ length: Keys }, (_, j) => ipOf(j));
  const path = Array.from({ length: Keys }, (_, j) => `/api/${j % Rules}`);
  return {
    name: 'burst', request: { host: 'bench.example.com' }, burst: { count: Requests, over: 600, vary: { ip, path } },
    expect: { acted: 0 }, location: { file: 'bench.tests.yaml', line: 1, column: 1 },
  };
}

function seconds(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  const loaded = validateManifestText(manifestText(), 'bench.yaml');
  if (loaded.zone === undefined) throw new Error(`the generated manifest is invalid: ${loaded.issues.slice(0, 3).map((i) => i.message).join('; ')}`);
  const model = buildZoneModel(loaded.zone);
  const c = burstCase();
  // The floor: the same keys, counted in a plain Map.
  const keys = Array.from({ length: Keys }, (_, j) => `${ipOf(j)}\u0001/api/${j % Rules}`);
  let floorCount = 0;
  const floor = seconds(() => {
    const counts = new Map<string, number>();
    for (let i = 0; i < Requests; i++) {
      const k = keys[i % Keys]!;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    floorCount = counts.size;
  });
  // Warm-up: the rules' expressions compiled, the code optimised (as bench/test.ts does).
  runOffline(model, [{ ...c, burst: { ...c.burst!, count: 20_000 } }]);
  let result!: ReturnType<typeof runOffline>[number];
  const test = seconds(() => { result = runOffline(model, [c])[0]!; });
  const rate = (s: number) => `${(Requests / s / 1e6).toFixed(2)} M requests/s`;
  console.log(`${Rules} rate limiting rules, a burst of ${Requests.toLocaleString('en')} requests across ${Keys.toLocaleString('en')} client keys (${floorCount.toLocaleString('en')} counters in the floor):`);
  console.log(`  zonewall test (runOffline, burst case)             ${(test * 1000).toFixed(0).padStart(7)} ms  ${rate(test)}  ${result.why}`);
  console.log(`  floor: the same keys counted in a plain Map        ${(floor * 1000).toFixed(0).padStart(7)} ms  ${rate(floor)}`);
  console.log(`  ratio ${(test / floor).toFixed(2)}x the floor (target <= 3x); peak memory (max RSS) ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
}
