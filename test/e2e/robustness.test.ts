/**
 * The rough edges a user meets, with the real CLI in child processes: output piped to `head`, Ctrl-C
 * at the confirmation prompt (under a real pseudo-terminal, through `script`), `serve` on a busy
 * port, and SIGINT/SIGTERM in the middle of an apply. Each ends with one clean line and the right
 * exit code, never a stack trace; an interrupted apply says what was applied and releases its lock.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, startServe, tempDir, withEngine, writeManifest, zonewall, type Served } from '../helpers/e2e-cli.js';

const bin = join(repoRoot, 'bin', 'zonewall.js');
const stackLine = /\n\s+at .+:\d+:\d+/;
let tmp: ReturnType<typeof tempDir>;

beforeAll(() => { requireBuild(); tmp = tempDir('robust'); });
afterAll(() => tmp?.cleanup());

/** A manifest with `n` filters and rules: large enough output and several batches of writes. */
function bigManifest(name: string, zone: string, n: number): string {
  const lines = [`zone: ${zone}`, 'plan: enterprise', 'filters:'];
  for (let i = 0; i < n; i++) lines.push(`  f${i}:`, `    expression: ip.src eq 192.0.${Math.floor(i / 250)}.${i % 250 + 1}`, `    description: filter number ${i} with a long description to make the plan large`);
  lines.push('firewall_rules:');
  for (let i = 0; i < n; i++) lines.push(`  r${i}:`, '    action: block', `    filter: f${i}`);
  return writeManifest(tmp.dir, name, `${lines.join('\n')}\n`);
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('ZONEWALL_')) delete env[k];
  return { ...env, NO_COLOR: '1', ...extra };
}

function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; input?: (child: ReturnType<typeof spawn>, out: () => string) => void } = {}): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { cwd: tmp.dir, env: options.env ?? cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  options.input?.(child, () => stdout + stderr);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe('output to a closed pipe', () => {
  it('`NO_COLOR=1 zonewall plan --json x.yaml | head -1` prints one line and no error', async () => {
    const file = bigManifest('big.yaml', 'pipe.example', 400);
    const state = join(tmp.dir, 'pipe-state');
    const r = await run('sh', ['-c', `"${process.execPath}" "${bin}" plan --json "${file}" --state-dir "${state}" | head -1; echo "status=$?"`]);
    expect(r.stdout).toBe('{\nstatus=0\n');
    expect(r.stderr).not.toMatch(/EPIPE|Error|internal/);
    expect(r.stderr).not.toMatch(stackLine);
  }, 60_000);
});

describe('export to a closed pipe', () => {
  it('`zonewall export --zone Z | head -1` prints one line and no error', async () => {
    const file = bigManifest('export-big.yaml', 'export-pipe.example', 400);
    const state = join(tmp.dir, 'export-pipe-state');
    const applied = await run(process.execPath, [bin, 'apply', file, '--auto-approve', '--state-dir', state]);
    expect(applied.code, applied.stderr).toBe(0);
    const r = await run('sh', ['-c', `"${process.execPath}" "${bin}" export --zone export-pipe.example --no-adopt --state-dir "${state}" | head -1; echo "status=$?"`]);
    expect(r.stdout).toMatch(/^# yaml-language-server: \$schema=\S+\nstatus=0\n$/);
    expect(r.stderr).not.toMatch(/EPIPE|Error|internal/);
    expect(r.stderr).not.toMatch(stackLine);
  }, 60_000);
});

describe('zonewall serve on a busy port', () => {
  it.each([[[]], [['--runtime', 'workerd']]])('says so in one line and exits 1 (%j)', async (runtime: string[]) => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await zonewall(['serve', ...runtime, '--port', String(port), '--state-dir', join(tmp.dir, `busy-state${runtime.length}`)], { env: { ZONEWALL_SERVE_TOKEN: 'busy-port-token-123' }, cwd: tmp.dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`error: port ${port} on 127.0.0.1 is already in use (another zonewall serve?): stop it, or pass --port with another port (0 picks a free one)\n`);
    } finally {
      blocker.close();
    }
  }, 30_000);
});

describe('Ctrl-C at the confirmation prompt', () => {
  it('cancels with one line and exit 130, nothing applied', async () => {
    const file = bigManifest('prompt.yaml', 'prompt.example', 2);
    const state = join(tmp.dir, 'prompt-state');
    const command = `"${process.execPath}" "${bin}" apply "${file}" --state-dir "${state}"`;
    const r = await run('script', ['-qec', command, '/dev/null'], {
      input: (child, out) => {
        const timer = setInterval(() => {
          if (out().includes('Enter a value:')) {
            clearInterval(timer);
            child.stdin!.write('\x03');
          }
        }, 50);
        child.on('close', () => clearInterval(timer));
      },
    });
    const all = r.stdout + r.stderr;
    expect(all).toContain('Apply cancelled at the prompt: nothing was applied.');
    expect(all).not.toMatch(/AbortError|internal error/);
    expect(all).not.toMatch(stackLine);
    expect(r.code).toBe(130);
    // Nothing at all: the zone is created only at the first write.
    expect(await withEngine(state, (engine) => engine.getZone('prompt.example'))).toBeUndefined();
    expect(readdirSync(join(state, 'locks'))).toEqual([]);
  }, 60_000);
});

describe('engine zone delete on a terminal', () => {
  /** Runs `engine zone delete` under a pseudo-terminal and sends `keys` once the prompt shows. */
  const deleteAt = (state: string, keys: string) => run('script', ['-qec', `"${process.execPath}" "${bin}" engine zone delete doomed.example --state-dir "${state}"`, '/dev/null'], {
    input: (child, out) => {
      const timer = setInterval(() => {
        if (out().includes('Enter a value:')) {
          clearInterval(timer);
          child.stdin!.write(keys);
        }
      }, 50);
      child.on('close', () => clearInterval(timer));
    },
  });

  it('asks first; Ctrl-C cancels with one line and exit 130, and "yes" deletes', async () => {
    const state = join(tmp.dir, 'delete-state');
    await withEngine(state, async (engine) => { await engine.createZone('doomed.example', { plan: 'pro' }); });
    const cancelled = await deleteAt(state, '\x03');
    const all = cancelled.stdout + cancelled.stderr;
    expect(all).toContain('Delete zone doomed.example (id ');
    expect(all).toContain('Zone deletion cancelled at the prompt: nothing was deleted.');
    expect(all).not.toMatch(/AbortError|internal error/);
    expect(all).not.toMatch(stackLine);
    expect(cancelled.code).toBe(130);
    expect(await withEngine(state, (engine) => engine.getZone('doomed.example'))).toBeDefined();

    const deleted = await deleteAt(state, 'yes\n');
    expect(deleted.code, deleted.stdout).toBe(0);
    expect(deleted.stdout).toMatch(/deleted zone doomed\.example \(id [0-9a-f]{32}\) and all its data/);
    expect(await withEngine(state, (engine) => engine.getZone('doomed.example'))).toBeUndefined();
  }, 60_000);
});

/** How many filters the served zone holds (0 when the server cannot say). */
async function filtersOf(served: Served, zoneId: string): Promise<number> {
  try {
    const res = await fetch(`${served.url}/zones/${zoneId}/filters?per_page=5`, { headers: { authorization: `Bearer ${served.token}` } });
    const body = (await res.json()) as { result_info?: { total_count?: number } };
    return body.result_info?.total_count ?? 0;
  } catch {
    return 0;
  }
}

describe('SIGINT and SIGTERM during an apply', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal}: stops after the request in flight, reports what was applied, releases the lock, exits ${code}`, async () => {
      const zone = `${signal.toLowerCase()}.example`;
      const state = join(tmp.dir, `${signal}-state`);
      const locks = join(tmp.dir, `${signal}-tmp`);
      mkdirSync(locks);
      const zoneId = await withEngine(state, async (engine) => (await engine.createZone(zone, { plan: 'enterprise' })).id);
      const served = await startServe(state);
      try {
        const file = bigManifest(`${signal}.yaml`, zone, 350);
        const env = cleanEnv({ ZONEWALL_API_TOKEN: served.token, TMPDIR: locks });
        let sent = false;
        let asking = false;
        const r = await run(process.execPath, [bin, 'apply', file, '--remote', served.url, '--auto-approve', '--rate-limit', '1/1s'], {
          env,
          input: (child, out) => {
            // Readiness, not time: the signal goes once the zone holds the apply's first write (the
            // budget of one request a second leaves many writes to come, so one is in flight or next).
            const timer = setInterval(() => {
              if (sent || asking || !out().includes('Plan:')) return;
              asking = true;
              void filtersOf(served, zoneId).then((count) => {
                asking = false;
                if (sent || count === 0) return;
                sent = true;
                clearInterval(timer);
                child.kill(signal);
              });
            }, 100);
            child.on('close', () => clearInterval(timer));
          },
        });
        expect(sent).toBe(true);
        expect(r.code, r.stderr).toBe(code);
        expect(r.stderr).toContain(`${signal} received: stopping after the request in flight`);
        expect(r.stderr).toContain(`apply interrupted by ${signal}`);
        expect(r.stderr).not.toMatch(stackLine);
        expect(r.stdout).toMatch(/stopped in phase [a-z_.]+: interrupted/);
        expect(r.stdout).toMatch(/ {2}applied:\n[\s\S]*not applied:/);
        const lockDir = readdirSync(locks).find((d) => d.startsWith('zonewall-locks'));
        expect(lockDir === undefined || readdirSync(join(locks, lockDir)).length === 0).toBe(true);
        expect(existsSync(locks)).toBe(true);
      } finally {
        await served.stop();
      }
    }, 120_000);
  }
});

describe('SIGINT while an apply reads the zone (before any write)', () => {
  it('releases the lock, says nothing was applied, exits 130', async () => {
    const zone = 'early.example';
    const state = join(tmp.dir, 'early-state');
    const locks = join(tmp.dir, 'early-tmp');
    mkdirSync(locks);
    await withEngine(state, async (engine) => { await engine.createZone(zone, { plan: 'enterprise' }); });
    const served = await startServe(state);
    try {
      const file = bigManifest('early.yaml', zone, 3);
      let sent = false;
      const r = await run(process.execPath, [bin, 'apply', file, '--remote', served.url, '--auto-approve', '--rate-limit', '1/2s'], {
        env: cleanEnv({ ZONEWALL_API_TOKEN: served.token, TMPDIR: locks }),
        input: (child, out) => {
          const timer = setInterval(() => {
            // The request budget makes the reads wait; the lock is held by then, and no plan is shown yet.
            if (!sent && out().includes('waiting')) {
              sent = true;
              clearInterval(timer);
              child.kill('SIGINT');
            }
          }, 20);
          child.on('close', () => clearInterval(timer));
        },
      });
      expect(sent).toBe(true);
      expect(r.stdout).not.toContain('Plan:');
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('SIGINT received while reading the zones and planning: nothing was applied');
      expect(r.stderr).not.toMatch(stackLine);
      const lockDir = readdirSync(locks).find((d) => d.startsWith('zonewall-locks'));
      expect(lockDir).toBeDefined();
      expect(readdirSync(join(locks, lockDir!))).toEqual([]);
    } finally {
      await served.stop();
    }
  }, 60_000);
});
