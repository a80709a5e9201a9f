/**
 * One name, one job in the migration layer: two exported functions called `convertFirewallRules`
 * (Terraform resources into `firewall_rules`, and firewall rules into custom rules) made a reader,
 * or an import completion, pick the wrong one. No two files of src/migrate (or src/cli) export a
 * function of the same name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/e2e-cli.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function duplicates(dirs: string[]): string[] {
  const where = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => files(join(repoRoot, d)))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^export (?:async )?function (\w+)/gm)) {
      where.set(m[1]!, [...(where.get(m[1]!) ?? []), relative(repoRoot, file)]);
    }
  }
  return [...where].filter(([, paths]) => paths.length > 1).map(([name, paths]) => `${name}: ${paths.join(', ')}`);
}

describe('exported function names', () => {
  it('are unique across src/migrate and src/cli', () => {
    expect(duplicates(['src/migrate', 'src/cli'])).toEqual([]);
  });

  it('the Terraform conversion says what it converts', () => {
    const text = readFileSync(join(repoRoot, 'src/migrate/terraform-firewall.ts'), 'utf8');
    expect(text).toMatch(/^export function convertTerraformFirewallRules\(/m);
    expect(text).toMatch(/^export function convertTerraformFilters\(/m);
  });
});
