/**
 * The Node.js minimum: one number in `package.json`'s `engines`, the lockfile, the launcher's check
 * and the README, and an older Node gets one clear line at start-up (exit 1), not an obscure failure later.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/e2e-cli.js';

const bin = join(repoRoot, 'bin', 'zonewall.js');

describe('Node.js minimum', () => {
  it('is the same in engines, the launcher and the README', () => {
    const engines = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const minimum = /const Minimum = \[(\d+), (\d+), (\d+)\]/.exec(readFileSync(bin, 'utf8'))!.slice(1).join('.');
    expect(engines).toBe(`>=${minimum}`);
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8')).toContain(`Node ${minimum} or later`);
  });

  it('the lockfile\'s own entry says what package.json says (a stale one is rewritten by the README\'s `npm install`)', () => {
    const read = (file: string) => JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as Record<string, unknown>;
    const pkg = read('package.json');
    const own = (read('package-lock.json').packages as Record<string, Record<string, unknown>>)[''];
    for (const field of ['name', 'version', 'license', 'bin', 'engines', 'dependencies', 'devDependencies']) expect(own[field], field).toEqual(pkg[field]);
  });

  it('an older Node gets one line naming both versions and exit 1, before anything loads', () => {
    const r = spawnSync(process.execPath, ['--import', join(repoRoot, 'test', 'helpers', 'fake-old-node.mjs'), bin, 'plan', 'x.yaml'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^zonewall needs Node\.js \d+\.\d+\.\d+ or newer; this is 20\.11\.0\. Install a newer Node\.js \(e\.g\. the current LTS\) and try again\.\n$/);
  });
});
