/**
 * `migrate` and its subcommands given a path they cannot read as a file (a directory, say, where
 * `validate` and `plan` take one): one line naming the path and what to give instead, not Node's
 * errno text (`EISDIR: illegal operation on a directory, read`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

async function run(...args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => { err += String(s); return true; });
  process.exitCode = undefined;
  const code = await main(['node', 'zonewall', ...args]);
  vi.restoreAllMocks();
  return { code, err };
}

describe('migrate commands given a directory', () => {
  const cases: [string, string[]][] = [
    ['migrate PATH', ['migrate', 'examples/']],
    ['migrate --from-terraform-state DIR', ['migrate', '--from-terraform-state', 'examples/']],
    ['migrate firewall-rules', ['migrate', 'firewall-rules', 'examples/']],
    ['migrate firewall-terraform', ['migrate', 'firewall-terraform', 'examples/']],
  ];
  for (const [name, args] of cases) {
    it(`${name}: says it is a directory, in one line`, async () => {
      const r = await run(...args);
      expect(r.code).toBe(1);
      expect(r.err).toBe('error: cannot read examples/: it is a directory; give a file\n');
    });
  }

  it('a missing file still says so', async () => {
    const r = await run('migrate', 'firewall-rules', 'examples/nothere.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: cannot read examples/nothere.yaml: no such file\n');
  });
});
