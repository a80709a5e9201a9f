/**
 * The built CLI: bin/zonewall.js runs the esbuild bundle (dist/bundle/), whose commands load only
 * their own code (a plan on the embedded engine never loads undici), and the manifest validator
 * compiled ahead of time at build matches the schema in the repository (a stale one would be
 * skipped at run time; this test says the build is fresh).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestSchemaHash } from '../../src/manifest/schema.js';
import { repoRoot, requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('bundle');
});
afterAll(() => tmp?.cleanup());

const Manifest = 'zone: bundle.example\nfilters:\n  a:\n    expression: ip.src eq 192.0.2.1\nfirewall_rules:\n  r:\n    action: block\n    filter: a\n';

describe('the bundled CLI', () => {
  it('bin/zonewall.js runs the bundle', () => {
    expect(readFileSync(join(repoRoot, 'bin/zonewall.js'), 'utf8')).toContain("import('../dist/bundle/zonewall.js')");
  });

  it('validates, plans and applies from the bundle, and reports manifest errors with their place', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', Manifest);
    const state = join(tmp.dir, 'state');
    expect((await zonewall(['validate', file])).stdout).toContain('1 manifest valid');
    const apply = await zonewall(['apply', file, '--state-dir', state, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const plan = await zonewall(['plan', file, '--state-dir', state]);
    expect(plan.stdout).toContain('No changes.');
    const bad = writeManifest(tmp.dir, 'bad.yaml', Manifest.replace('action: block', 'action: blok'));
    const run = await zonewall(['validate', bad]);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/bad\.yaml:7:13: firewall_rules\.r\.action: .*blok/);
  });

  it('a plan on the embedded engine does not load the HTTP client', async () => {
    const file = writeManifest(tmp.dir, 'plain.yaml', Manifest);
    const probe = writeManifest(tmp.dir, 'probe.mjs',
      "import { createRequire } from 'node:module';\nprocess.on('exit', () => { const cache = createRequire(import.meta.url).cache; process.stderr.write(`undici loaded: ${Object.keys(cache).some((k) => k.includes('/undici/'))}\\n`); });\n");
    const run = await zonewall(['plan', file, '--state-dir', join(tmp.dir, 'state2')], { env: { NODE_OPTIONS: `--import ${probe}` } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('undici loaded: false');
  });

  it('the validator compiled at build is the current schema\'s', () => {
    const aot = createRequire(import.meta.url)(join(repoRoot, 'dist/manifest/schema-validator.cjs')) as { schemaHash: string };
    expect(aot.schemaHash).toBe(manifestSchemaHash);
  });
});
