/**
 * `npm run bench -- manifest`: load + validate time of a manifest with 1,000 filters and 1,000
 * firewall rules, and of a directory of 50 such manifests (targets: under 0.1 s and under 2 s).
 * Baseline: `yaml.parse` of the same text (the `yaml` package alone, no positions, no checks),
 * measured in the same run; the ratio says what validation costs on top of reading YAML.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadManifests, validateManifestText } from '../src/manifest/index.js';
import { compiledValidator } from '../src/manifest/schema.js';

const actions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow'];

/** A manifest of `n` filters and `n` firewall rules with varied, realistic expressions. */
export function bigManifest(zone: string, n: number): string {
  const out = [`# yaml-language-server: $schema=../schemas/zone-manifest.schema.json`, `zone: ${zone}`, 'plan: enterprise', 'filters:'];
  for (let i = 0; i < n; i++) {
    const expr = i % 3 === 0
      ? `http.request.uri.path contains "/app/${i}/" and ip.src ne 198.51.100.${i % 250}`
      : i % 3 === 1
        ? `(http.user_agent contains "bot-${i}" or http.referer eq "https://r${i}.example") and not cf.client.bot`
        : `ip.src in {192.0.2.${i % 250} 203.0.113.0/24} and http.request.method in {"POST" "PUT"} and cf.threat_score gt ${i % 100}`;
    out.push(`  filter-${i}:`, `    expression: ${expr}`, `    description: Filter number ${i}`);
  }
  out.push('firewall_rules:');
  for (let i = 0; i < n; i++) {
    out.push(`  rule-${i}:`, `    action: ${actions[i % actions.length]}`, `    filter: filter-${i}`);
    if (i % 100 === 0) out.push(`    priority: ${i * 10 + 1}`);
    if (i % 7 === 0) out.push('    paused: true');
  }
  return `${out.join('\n')}\n`;
}

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** CPU time (user + system) of `fn`, in ms: steadier than wall time on a busy machine. */
function cpu(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const text = bigManifest('bench.example.com', 1000);
  console.log(`manifest: 1,000 filters + 1,000 firewall rules, ${(text.length / 1024).toFixed(0)} KiB`);
  console.log(`schema compile (once per process): ${fmt(time(() => compiledValidator()))}`);
  const first = validateManifestText(text, 'bench.yaml');
  if (first.issues.length > 0) throw new Error(`benchmark manifest is invalid: ${first.issues[0].message}`);
  const one: number[] = [];
  const oneCpu: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 9; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    one.push(time(() => validateManifestText(text, 'bench.yaml')));
    oneCpu.push(cpu(() => validateManifestText(text, 'bench.yaml')));
    base.push(time(() => parseYaml(text)));
  }
  const m1 = median(one);
  const b1 = median(base);
  console.log(`one manifest:   load+validate ${fmt(m1)} wall, ${fmt(median(oneCpu))} cpu (target < 100 ms)   `
    + `baseline yaml.parse ${fmt(b1)}   ratio ${(m1 / b1).toFixed(2)}`);

  const dir = mkdtempSync(join(tmpdir(), 'zonewall-bench-'));
  try {
    const texts: string[] = [];
    for (let z = 0; z < 50; z++) {
      texts.push(bigManifest(`zone-${z}.example.com`, 1000));
      writeFileSync(join(dir, `zone-${String(z).padStart(2, '0')}.yaml`), texts[z]);
    }
    const fifty: number[] = [];
    const fiftyCpu: number[] = [];
    const fiftyBase: number[] = [];
    for (let i = 0; i < 3; i++) {
      (globalThis as { gc?: () => void }).gc?.();
      const start = process.cpuUsage();
      fifty.push(await timeAsync(async () => {
        const r = await loadManifests([dir]);
        if (r.errors.length > 0 || r.zones.length !== 50) throw new Error('benchmark directory did not validate');
      }));
      const used = process.cpuUsage(start);
      fiftyCpu.push((used.user + used.system) / 1000);
      fiftyBase.push(time(() => texts.forEach((t) => parseYaml(t))));
    }
    const m50 = median(fifty);
    const b50 = median(fiftyBase);
    console.log(`fifty manifests: load+validate ${fmt(m50)} wall, ${fmt(median(fiftyCpu))} cpu (target < 2000 ms)   `
      + `baseline yaml.parse ${fmt(b50)}   ratio ${(m50 / b50).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
