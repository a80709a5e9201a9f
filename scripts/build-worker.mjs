/**
 * The Worker bundle (part of `npm run build`): deploy/worker/index.ts and the engine code it uses,
 * bundled by esbuild into one ES module, dist/worker/index.js, for workerd (`npx wrangler deploy`
 * from deploy/worker/, or `zonewall serve --runtime workerd` through Miniflare). `cloudflare:*` and
 * `node:*` stay imports: workerd provides them (`nodejs_compat`, for expressions' Buffer and
 * HMAC). The build fails if the bundle imports a Node module workerd lacks (`node:fs`, ...).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Node modules the bundle may import: what workerd's `nodejs_compat` provides and the engine uses. */
export const WorkerNodeModules = ['node:buffer', 'node:crypto', 'node:util'];

/** Bundles the Worker into `outfile` (default dist/worker/index.js); returns the path. */
export async function buildWorker(outfile = `${root}dist/worker/index.js`) {
  const result = await build({
    entryPoints: [`${root}deploy/worker/index.ts`],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    external: ['cloudflare:*', 'node:*'],
    metafile: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  const foreign = [...new Set(imports)].filter((i) => i.startsWith('node:') && !WorkerNodeModules.includes(i));
  if (foreign.length > 0) throw new Error(`the Worker bundle imports ${foreign.join(', ')}, which workerd does not provide: keep Node-only code out of the engine's zone object path`);
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildWorker();
