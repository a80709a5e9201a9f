/**
 * `zonewall serve --runtime workerd` as a user runs it: the CLI in a child process, the zone made
 * with `engine zone create` beforehand, an apply through `--remote`, then `rollback` on that state
 * directory, which says in one line that the workerd runtime has no local point-in-time recovery,
 * and a plan on it, which warns that the built-in copies are not what was served; and a clean stop
 * on SIGINT (Ctrl-C).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, startServe, tempDir, zonewall, type Served } from '../helpers/e2e-cli.js';
import { spawnServe } from '../helpers/serve-child.js';

const token = 'e2e-workerd-token-0123456789abcdefghij';
let tmp: ReturnType<typeof tempDir>;
let served: Served | undefined;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('serve-workerd');
});
afterAll(async () => {
  await served?.stop();
  tmp?.cleanup();
});

describe('zonewall serve --runtime workerd', () => {
  it('serves a zone created with engine zone create; rollback says in one line that there is no local PITR', { timeout: 120_000 }, async () => {
    const state = join(tmp.dir, 'state');
    expect((await zonewall(['engine', 'zone', 'create', 'shared.example.com', '--plan', 'business', '--state-dir', state])).code).toBe(0);
    served = await startServe(state, token, { args: ['--runtime', 'workerd'] });
    const env = { ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: token };
    const apply = await zonewall(['apply', join(repoRoot, 'examples/shared-filters.yaml'), '--auto-approve'], { env });
    expect(apply.code, apply.stderr).toBe(0);
    await served.stop();
    served = undefined;
    const rollback = await zonewall(['rollback', '--zone', 'shared.example.com', '--state-dir', state]);
    expect(rollback.code).not.toBe(0);
    expect(rollback.stderr.trim().split('\n')).toHaveLength(1);
    expect(rollback.stderr).toMatch(/workerd runtime \(serve --runtime workerd\), which has no point-in-time recovery locally/);
    // The built-in engine's copy of the zone never saw that apply: a plan on the directory says so.
    const plan = await zonewall(['plan', join(repoRoot, 'examples/shared-filters.yaml'), '--state-dir', state]);
    expect(plan.stderr).toMatch(/^warning: .* is served by the workerd runtime/m);
  });

  it('stops cleanly on SIGINT (Ctrl-C)', { timeout: 120_000 }, async () => {
    const served = spawnServe([join(repoRoot, 'bin/zonewall.js'), 'serve', '--runtime', 'workerd', '--port', '0', '--state-dir', join(tmp.dir, 'sigint')], {
      env: { ...process.env, ZONEWALL_SERVE_TOKEN: token, NO_COLOR: '1' },
    });
    await served.url;
    const code = await served.stop('SIGINT');
    const { signal, err } = await served.closed;
    expect(`${code} ${signal} ${err}`).toBe('0 null zonewall serve: SIGINT, shutting down\n');
  });
});
