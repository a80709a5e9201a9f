/**
 * `npm run bench -- lists`: an account list at the enterprise quota, as a user runs zonewall (the
 * built CLI, a fresh process per run, the embedded engine in a temp state directory). One IP list
 * of N items (500,000; `ZW_BENCH_LIST_ITEMS` for a smaller run) is seeded through the engine's API
 * in one bulk write, and the manifest has 100 of its items changed. Printed, beside a floor measured in the same run (a process that opens the
 * same engine through the built library, reads the same items and diffs two Sets), medians of
 * interleaved runs:
 * - time and peak memory of cold `zonewall plan` of the account manifest vs the floor;
 * - item writes the apply of those 100 changes makes (from the plan's writes).
 * Targets (issue 30): plan within 2x of the floor in time and in memory; at most 2 item writes.
 * Needs `npm run build` (dist/).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, runProcess } from './_fresh-process.js';

const N = Number(process.env.ZW_BENCH_LIST_ITEMS ?? 500_000);
const CHANGED = 100;
/** Interleaved runs of each side (medians); `ZW_BENCH_RUNS` to change. */
const RUNS = Number(process.env.ZW_BENCH_RUNS ?? 3);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'zonewall.js');

/** Item i: a distinct IPv4 address (10.0.0.0/8 and up). */
function item(i: number, changed: boolean): string {
  const n = (changed ? 0x0b000000 : 0x0a000000) + i;
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function manifest(changes: boolean): string {
  const lines = ['account: zonewall engine', 'lists:', '  big:', '    kind: ip', '    items:'];
  for (let i = 0; i < N; i++) lines.push(`      - ${item(i, changes && i % Math.floor(N / CHANGED) === 0 && i / Math.floor(N / CHANGED) < CHANGED)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The seed: the list and its N items written straight through the engine's API in one bulk `POST`
 * (the built library, in process): no manifest to parse and no CLI run, so the setup of 500,000
 * items takes seconds.
 */
const seedScript = `
import { Engine } from ${JSON.stringify(join(root, 'dist', 'engine', 'index.js'))};
const [stateDir, n] = process.argv.slice(2);
const engine = await Engine.open({ dir: stateDir });
const call = async (method, path, body) => {
  const res = await engine.dispatch({ method, path, body, query: new URLSearchParams() });
  if (res.status >= 300) throw new Error(method + ' ' + path + ': ' + JSON.stringify(res.body).slice(0, 500));
  return res.body.result;
};
const account = (await call('GET', '/accounts')).find((a) => a.name === 'zonewall engine');
const list = await call('POST', '/accounts/' + account.id + '/rules/lists', { name: 'big', kind: 'ip' });
const items = [];
for (let i = 0; i < Number(n); i++) {
  const v = 0x0a000000 + i;
  items.push({ ip: (v >>> 24) + '.' + ((v >>> 16) & 255) + '.' + ((v >>> 8) & 255) + '.' + (v & 255) });
}
const op = await call('POST', '/accounts/' + account.id + '/rules/lists/' + list.id + '/items', items);
let status = (await call('GET', '/accounts/' + account.id + '/rules/lists/bulk_operations/' + op.operation_id)).status;
while (status === 'pending' || status === 'running') status = (await call('GET', '/accounts/' + account.id + '/rules/lists/bulk_operations/' + op.operation_id)).status;
if (status !== 'completed') throw new Error('seed: bulk operation ' + status);
await engine.close();
`;

/** The floor: open the same engine, read the list's items, diff two Sets with the manifest's values. */
const floorScript = `
import { readFileSync } from 'node:fs';
import { openProvider } from ${JSON.stringify(join(root, 'dist', 'cli', 'provider-options.js'))};
const [stateDir, file] = process.argv.slice(2);
const provider = await openProvider({ stateDir }, {}, { readOnly: true });
const account = await provider.resolveAccount('zonewall engine');
const list = (await provider.listLists(account.id)).find((l) => l.name === 'big');
const live = new Set((await provider.listItems(account.id, list.id)).map((i) => i.ip));
const desired = new Set(readFileSync(file, 'utf8').split('\\n').filter((l) => l.startsWith('      - ')).map((l) => l.slice(8)));
let add = 0, remove = 0;
for (const v of desired) if (!live.has(v)) add++;
for (const v of live) if (!desired.has(v)) remove++;
process.stdout.write(JSON.stringify({ add, remove }));
await provider.close();
`;

/** `runProcess`, its peak memory in KiB as this benchmark prints it. */
function measure(args: string[], expectCode: number[] = [0]): { ms: number; rssKb: number; stdout: string } {
  const r = runProcess(args, expectCode);
  return { ms: r.ms, rssKb: r.rssMiB * 1024, stdout: r.stdout };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** Runs the benchmark. */
export async function run(): Promise<void> {
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-lists-'));
  try {
    const accountDir = join(dir, 'account');
    const file = join(accountDir, 'account.yaml');
    const floorFile = join(dir, 'floor.mjs');
    const seedFile = join(dir, 'seed.mjs');
    const stateDir = join(dir, 'state');
    const state = ['--state-dir', stateDir];
    spawnSync('mkdir', ['-p', accountDir]);
    writeFileSync(floorFile, floorScript);
    writeFileSync(seedFile, seedScript);
    const seeded = measure([seedFile, stateDir, String(N)]);
    console.log(`seed: ${N} items through the engine's API in one bulk write: ${fmt(seeded.ms)}`);
    writeFileSync(file, manifest(true));

    const plan = { ms: [] as number[], rss: [] as number[] };
    const floor = { ms: [] as number[], rss: [] as number[] };
    let doc: { lists: { summary: { itemsAdded: number; itemsRemoved: number }; writes: { before: { op: string }[] } } } | undefined;
    for (let r = 0; r < RUNS; r++) {
      const f = measure([floorFile, stateDir, file]);
      const diff = JSON.parse(f.stdout) as { add: number; remove: number };
      if (diff.add !== CHANGED || diff.remove !== CHANGED) throw new Error(`floor found +${diff.add} -${diff.remove}, expected ${CHANGED} each`);
      floor.ms.push(f.ms);
      floor.rss.push(f.rssKb);
      // --json: the same plan, and its writes say how many item writes the apply makes.
      const p = measure([bin, 'plan', accountDir, '--json', '--detailed-exitcode', ...state], [2]);
      plan.ms.push(p.ms);
      plan.rss.push(p.rssKb);
      doc = JSON.parse(p.stdout) as typeof doc;
    }
    const [pt, ft, pm, fm] = [median(plan.ms), median(floor.ms), median(plan.rss), median(floor.rss)];
    console.log(`floor: read ${N} items, diff two Sets:        ${fmt(ft)}   ${mb(fm)}`);
    console.log(`zonewall plan, ${N} items, ${CHANGED} changed:   ${fmt(pt)}   ${mb(pm)}   time ${(pt / ft).toFixed(2)}x, memory ${(pm / fm).toFixed(2)}x   target <= 2x   ${pt <= 2 * ft && pm <= 2 * fm ? 'met' : 'NOT met'}`);

    const { summary, writes } = doc!.lists;
    if (summary.itemsAdded !== CHANGED || summary.itemsRemoved !== CHANGED) throw new Error(`plan found +${summary.itemsAdded} -${summary.itemsRemoved}, expected ${CHANGED} each`);
    const itemWrites = writes.before.filter((w) => w.op === 'add-items' || w.op === 'remove-items').length;
    console.log(`item writes of the apply of the ${CHANGED} changes:   ${itemWrites}   target <= 2   ${itemWrites <= 2 ? 'met' : 'NOT met'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
