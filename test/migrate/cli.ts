/**
 * Helpers of the migration's end-to-end tests: run the built CLI (`node bin/zonewall.js`) as a
 * child process, start `zonewall serve` on a free port, and set up an embedded-engine zone's
 * previous WAF through the engine's own v4 API (in-process, while no CLI process holds the state).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../../src/engine/index.js';
import { spawnServe } from '../helpers/serve-child.js';

/** The repository root. */
export const root = path.resolve(import.meta.dirname, '..', '..');
/** The CLI under test: `bin/zonewall.js`, which runs the build in `dist/`. */
const bin = path.join(root, 'bin', 'zonewall.js');

/** What a CLI run printed and returned. */
export interface CliResult { code: number; stdout: string; stderr: string }

/** Runs `zonewall ARGS` in `cwd`. */
export function zonewall(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A running `zonewall serve`. */
export interface Served { url: string; stop(): Promise<void> }

/** Starts `zonewall serve --port 0` on a state directory with a bearer token; resolves once it listens (`spawnServe`: bounded, by readiness). */
export async function serve(stateDir: string, token: string, cwd: string): Promise<Served> {
  const served = spawnServe([bin, 'serve', '--port', '0', '--state-dir', stateDir], { cwd, env: { ...process.env, ZONEWALL_SERVE_TOKEN: token } });
  return { url: await served.url, stop: async () => { await served.stop(); } };
}

/** Calls the engine's v4 API in-process on a state directory, then closes the engine. */
export async function withEngine<T>(stateDir: string, fn: (call: (method: string, path: string, body?: unknown) => Promise<unknown>, engine: Engine) => Promise<T>): Promise<T> {
  const engine = await Engine.open({ dir: stateDir });
  try {
    return await fn(async (method, p, body) => {
      const res = await engine.dispatch({ method, path: p, ...(body !== undefined ? { body } : {}) });
      if (!res.body.success) throw new Error(`${method} ${p}: ${JSON.stringify(res.body.errors)}`);
      return res.body.result;
    }, engine);
  } finally {
    await engine.close();
  }
}

/** A temp directory with an embedded-engine state directory, and CLI runs against it. */
export interface Workspace {
  dir: string;
  stateDir: string;
  /** `zonewall ARGS --state-dir STATE` in the directory. */
  run(...args: string[]): Promise<CliResult>;
  /** The same, expecting exit 0 (the output is in the failure message); resolves with stdout. */
  ok(...args: string[]): Promise<string>;
  remove(): void;
}

/** Creates a workspace; `expectOk` is the test's assertion (vitest's `expect`, passed in). */
export function workspace(prefix: string, expectOk: (result: CliResult, what: string) => void): Workspace {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zw-e2e-${prefix}-`));
  const stateDir = path.join(dir, 'state');
  const run = (...args: string[]) => zonewall([...args, '--state-dir', stateDir], { cwd: dir });
  return {
    dir, stateDir, run,
    async ok(...args: string[]) {
      const r = await run(...args);
      expectOk(r, `zonewall ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
