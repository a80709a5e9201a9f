/**
 * The workerd runtime in tests: the Worker bundle built once per test process (esbuild, into a
 * temp folder, so a test never depends on an earlier `npm run build`), and `serve --runtime
 * workerd`'s host started on a state directory. Start it once per file: each start spawns workerd.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorker } from '../../scripts/build-worker.mjs';
import { startWorkerdServer, type RunningWorkerd, type WorkerdServerOptions } from '../../src/engine/index.js';

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
