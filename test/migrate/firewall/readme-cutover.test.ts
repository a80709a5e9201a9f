/**
 * The "Cutover on a live zone" and "From Terraform state" blocks of docs/firewall-rules-upgrade.md, exactly as written, in a
 * fresh directory holding the examples (the built CLI in a child process): every command succeeds,
 * the cutover leaves custom rules only, and the Terraform block prints the ruleset and the steps.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot, requireBuild, tempDir, zonewall } from '../../helpers/e2e-cli.js';

function block(heading: string): string[] {
  const readme = readFileSync(join(repoRoot, 'docs', 'firewall-rules-upgrade.md'), 'utf8');
  const start = readme.indexOf(heading);
  expect(start).toBeGreaterThan(0);
  const body = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))![1]!;
  return body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l !== '');
}

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('readme-cutover');
  cpSync(join(repoRoot, 'examples'), join(tmp.dir, 'examples'), { recursive: true });
});
afterAll(() => tmp.cleanup());

async function runBlock(lines: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const line of lines) {
    const words = line.split(/\s+/);
    if (words[0] === 'cp') {
      cpSync(join(tmp.dir, words[2]!), join(tmp.dir, words[3]!), { recursive: true });
      continue;
    }
    expect(words.slice(0, 2)).toEqual(['npx', 'zonewall']);
    const run = await zonewall(words.slice(2), { cwd: tmp.dir });
    expect({ line, code: run.code }, run.stderr).toEqual({ line, code: 0 });
    out.push(run.stdout + run.stderr);
  }
  return out;
}

it('the cutover block runs as written', async () => {
  const lines = block('### Cutover on a live zone');
  expect(lines.length).toBe(4);
  const out = await runBlock(lines);
  expect(out[1]).toContain('Cutover done: upgrade.example.com');
  const written = readFileSync(join(tmp.dir, 'live', 'zone.yaml'), 'utf8');
  expect(written).toMatch(/^custom_rules:$/m);
  expect(written).not.toMatch(/^(filters|firewall_rules):$/m);
});

it('the Terraform block runs as written', async () => {
  const [out] = await runBlock(block('### From Terraform state'));
  expect(out).toContain('phase   = "http_request_firewall_custom"');
  expect(out).toContain('terraform state rm \'cloudflare_filter.shared[0]\'');
  expect(out).toContain('zonewall migrate shop.yaml --from-terraform-state examples/upgrade/terraform.tfstate --write');
});
