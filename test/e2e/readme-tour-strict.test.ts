/**
 * The README's remote tour, exactly as written, against `zonewall serve --strict` (the real API's
 * shapes only) and against `zonewall serve --runtime workerd` (the Worker in Miniflare): the block is read from README.md, each `npx zonewall` line runs as a child process
 * in a fresh directory holding the examples, `export` lines set the environment, and the `serve`
 * line starts the server with `--strict` on a free port (the URL the tour exports is pointed at
 * it). Every command must succeed, and a second plan must find nothing to change.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, startServe, tempDir, zonewall, type Served } from '../helpers/e2e-cli.js';

/** The shell block of the README that follows "The same commands work against any v4 API". */
function remoteTour(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('The same commands work against any v4 API');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))![1]!;
  return block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l !== '');
}

/** Splits `A=1 B=2` into pairs. */
function assignments(text: string): [string, string][] {
  return text.split(/\s+/).map((kv) => kv.split('=') as [string, string]);
}

for (const serveArgs of [['--strict'], ['--runtime', 'workerd']]) describe(`the README tour against zonewall serve ${serveArgs.join(' ')}`, () => {
  let tmp: ReturnType<typeof tempDir>;
  let served: Served | undefined;
  beforeAll(() => {
    requireBuild();
    tmp = tempDir('tour-remote');
    cpSync(join(repoRoot, 'examples'), join(tmp.dir, 'examples'), { recursive: true });
  });
  afterAll(async () => {
    await served?.stop();
    tmp?.cleanup();
  });

  // A server and a dozen CLI runs (the workerd half starts Miniflare): generous on a loaded machine, and bounded.
  it('runs every command as written', { timeout: 240_000 }, async () => {
    const lines = remoteTour();
    expect(lines.some((l) => l.includes('--against-zone'))).toBe(true);
    const env: Record<string, string> = {};
    let servedPort = '';
    for (const line of lines) {
      if (line.startsWith('export ')) {
        for (const [k, v] of assignments(line.slice('export '.length))) env[k] = v.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${servedPort}`);
        continue;
      }
      expect(line.startsWith('npx zonewall '), line).toBe(true);
      const args = line.slice('npx zonewall '.length).replace(/\s*&$/, '').split(/\s+/);
      if (args[0] === 'serve') {
        const stateDir = args[args.indexOf('--state-dir') + 1]!;
        served = await startServe(stateDir, env.ZONEWALL_SERVE_TOKEN, { args: serveArgs, cwd: tmp.dir });
        servedPort = new URL(served.url).port;
        continue;
      }
      const run = await zonewall(args, { env, cwd: tmp.dir });
      expect(run.code, `${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
    }
    const again = await zonewall(['plan', 'examples/shared-filters.yaml', '--detailed-exitcode'], { env, cwd: tmp.dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
