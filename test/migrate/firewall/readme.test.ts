/**
 * The "Upgrading firewall rules to custom rules" block of docs/firewall-rules-upgrade.md, exactly as written: each line runs
 * in a fresh directory holding the examples (`cp -r` copies, `npx zonewall` runs the built CLI in a
 * child process), and every command must succeed. Then the written files say what the section says.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot, requireBuild, tempDir, zonewall } from '../../helpers/e2e-cli.js';

function block(): string[] {
  const readme = readFileSync(join(repoRoot, 'docs', 'firewall-rules-upgrade.md'), 'utf8');
  const start = readme.indexOf('## Upgrading firewall rules to custom rules');
  expect(start).toBeGreaterThan(0);
  const body = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))![1]!;
  return body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l !== '');
}

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('readme-upgrade');
  cpSync(join(repoRoot, 'examples'), join(tmp.dir, 'examples'), { recursive: true });
});
afterAll(() => tmp.cleanup());

it('runs as written', async () => {
  const lines = block();
  expect(lines.length).toBeGreaterThan(4);
  for (const line of lines) {
    const words = line.split(/\s+/);
    if (words[0] === 'cp') {
      cpSync(join(tmp.dir, words[2]!), join(tmp.dir, words[3]!), { recursive: true });
      continue;
    }
    expect(words.slice(0, 2)).toEqual(['npx', 'zonewall']);
    const run = await zonewall(words.slice(2), { cwd: tmp.dir });
    expect({ line, code: run.code, stderr: run.stderr }).toEqual({ line, code: 0, stderr: '' });
  }
  const written = readFileSync(join(tmp.dir, 'upgrade', 'zone.yaml'), 'utf8');
  expect(written).toMatch(/^custom_rules:$/m);
  expect(written).not.toMatch(/^(filters|firewall_rules):$/m);
  expect(readFileSync(join(tmp.dir, 'upgrade', 'zone.tests.yaml'), 'utf8')).not.toContain('firewall_rules.');
  // The repository's example is untouched.
  expect(readFileSync(join(repoRoot, 'examples', 'upgrade', 'zone.yaml'), 'utf8')).toMatch(/^firewall_rules:$/m);
});
