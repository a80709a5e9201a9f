/**
 * End-to-end helpers for the plan/apply tests: run the built CLI (`node bin/zonewall.js`, compiled
 * to dist/ by `npm test` before vitest runs) in a child process, temp directories, `zonewall serve`
 * as a child process on a free port, and direct engine access for changes made "outside zonewall"
 * (a dashboard edit, objects created by other tools).
 */
import { spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { Engine } from '../../src/engine/index.js';
import { spawnServe } from './serve-child.js';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(repoRoot, 'bin', 'zonewall.js');

/** The outcome of one CLI run. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Throws a clear error when the CLI has not been built. */
export function requireBuild(): void {
  if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js')) || !existsSync(join(repoRoot, 'dist', 'bundle', 'zonewall.cjs'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test builds before running vitest)');
  }
}

/** Environment without the caller's zonewall settings, colors off. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('ZONEWALL_')) delete env[k];
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs `zonewall ARGS...` (`bin`: another copy's bin/zonewall.js) and resolves when it exits. */
export function zonewall(args: string[], options: { env?: Record<string, string>; cwd?: string; bin?: string } = {}): Promise<CliRun> {
  return outputOf(spawnZonewall(args, options));
}

/** Starts `zonewall ARGS...` as `zonewall` does, for a test that watches the child (its pid) while it runs; `outputOf` waits for it. */
export function spawnZonewall(args: string[], options: { env?: Record<string, string>; cwd?: string; bin?: string } = {}): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, [options.bin ?? bin, ...args], { cwd: options.cwd ?? repoRoot, env: cleanEnv(options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A child's exit code and everything it wrote, once it has exited (rejects when it could not start). */
export function outputOf(child: ChildProcessByStdio<null, Readable, Readable> | ChildProcessWithoutNullStreams): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A temp directory and its removal. */
export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), `zw-e2e-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a manifest file and returns its path. */
export function writeManifest(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** A running `zonewall serve`. */
export interface Served {
  url: string;
  token: string;
  stop(): Promise<void>;
}

/** Starts `zonewall serve --port 0` on `stateDir` (plus `options.args`, e.g. `--strict`) and waits until it listens (`spawnServe`: bounded, by readiness). */
export async function startServe(stateDir: string, token = 'e2e-plan-apply-token-0123456789abcdefghij', options: { args?: string[]; cwd?: string } = {}): Promise<Served> {
  const served = spawnServe([bin, 'serve', '--port', '0', '--state-dir', stateDir, ...(options.args ?? [])], {
    cwd: options.cwd ?? repoRoot, env: cleanEnv({ ZONEWALL_SERVE_TOKEN: token }),
  });
  const url = await served.url;
  return { url, token, stop: async () => { await served.stop(); } };
}

/** Opens the engine on a state directory for changes made outside zonewall; closes it after `fn`. */
export async function withEngine<T>(stateDir: string, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await Engine.open({ dir: stateDir });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

/** One v4 call on the engine (`path` may carry a query string); throws when the service refuses it. */
export async function v4<T = unknown>(engine: Engine, method: string, path: string, body?: unknown): Promise<T> {
  const [pathname, search] = path.split('?');
  const request = { method, path: pathname!, ...(search !== undefined ? { query: new URLSearchParams(search) } : {}), ...(body !== undefined ? { body } : {}) };
  const res = await engine.dispatch(request);
  const envelope = res.body as { success: boolean; errors: unknown[]; result: T };
  if (!envelope.success) throw new Error(`${method} ${path}: ${JSON.stringify(envelope.errors)}`);
  return envelope.result;
}

/** A zone's firewall rules and filters as the API lists them (first 100 of each). */
export async function liveObjects(stateDir: string, zone: string): Promise<{ zoneId: string; rules: { id: string; ref?: string; action: string; priority: number | null }[]; filters: { id: string; ref?: string; expression: string }[] }> {
  return withEngine(stateDir, async (engine) => {
    const z = await engine.getZone(zone);
    if (z === undefined) throw new Error(`no zone ${zone} in ${stateDir}`);
    const rules = await v4<{ id: string; ref?: string; action: string; priority: number | null }[]>(engine, 'GET', `/zones/${z.id}/firewall/rules?per_page=100`);
    const filters = await v4<{ id: string; ref?: string; expression: string }[]>(engine, 'GET', `/zones/${z.id}/filters?per_page=100`);
    return { zoneId: z.id, rules, filters };
  });
}

/** Rule ids by ref. */
export function ruleIds(objects: { rules: { id: string; ref?: string }[] }): Map<string, string> {
  return new Map(objects.rules.map((r) => [r.ref ?? '', r.id]));
}
