/**
 * The workerd runtime in tests: the Worker bundle built once per test process (esbuild, into a
 * temp folder, so a test never depends on an earlier `npm run build`), and `serve --runtime
 * workerd`'s host started on a state directory. Start it once per file: each start spawns workerd.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorker } from '../../scripts/build-worker.mjs';
import { afterAll } from 'vitest';
import { startWorkerdServer, type RunningWorkerd, type WorkerdServerOptions } from '../../src/engine/index.js';
import type { ContractHarness } from '../../src/providers/contract.suite.js';
import { openHttpProvider } from '../../src/providers/http/index.js';

let bundle: Promise<string> | undefined;

/** The Worker bundle of this checkout (built at the first call). */
export function workerBundle(): Promise<string> {
  bundle ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-worker-bundle-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return buildWorker(join(dir, 'index.js'));
  })();
  return bundle;
}

/** Starts the workerd runtime on `options.dir` (a new temp directory by default). */
export async function startWorkerd(options: Partial<WorkerdServerOptions> & Pick<WorkerdServerOptions, 'credentials'>): Promise<RunningWorkerd & { dir: string }> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'zw-workerd-'));
  const server = await startWorkerdServer({ port: 0, ...options, dir, scriptPath: await workerBundle() });
  return { ...server, dir };
}

const ContractToken = 'zw-test-token-workerd-0123456789abcdefghij';

/**
 * The provider contract's harness over one workerd runtime for the calling test file (started at
 * the first test, stopped after the file): zones are created through the API (`POST /zones`) and
 * deleted after each test. (Not `--strict`: it serves neither route.)
 */
export function workerdContract(): () => Promise<ContractHarness> {
  let running: ReturnType<typeof startWorkerd> | undefined;
  afterAll(async () => {
    if (running === undefined) return;
    const server = await running;
    await server.close();
    rmSync(server.dir, { recursive: true, force: true });
  });
  return async () => {
    running ??= startWorkerd({ credentials: [{ type: 'token', token: ContractToken, zones: '*' }] });
    const { url } = await running;
    const provider = openHttpProvider({ url, env: { ZONEWALL_API_TOKEN: ContractToken } });
    const created: string[] = [];
    return {
      provider,
      createZone: async (name, plan) => {
        const res = await v4(url, 'POST', '/zones', { name, plan_tier: plan });
        if (!res.body.success) throw new Error(`zone ${name} not created: ${JSON.stringify(res.body)}`);
        created.push((res.body.result as { id: string }).id);
        return (await provider.resolveZone(name)).zone;
      },
      raw: (method, p, body) => v4(url, method, p, body),
      close: async () => {
        await provider.close();
        for (const id of created) await v4(url, 'DELETE', `/zones/${id}`);
      },
    };
  };
}

/** One v4 call with the contract's token. */
async function v4(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: { success: boolean; result: unknown } }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ContractToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; result: unknown } };
}
