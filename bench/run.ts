/**
 * Benchmark runner: `npm run bench -- NAME...` runs bench/NAME.ts (all of them without a name).
 * Each benchmark prints its figures beside a baseline measured in the same run, and the ratio.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`\n== bench ${name} ==`);
  const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as { run: () => Promise<void> };
  await mod.run();
}
