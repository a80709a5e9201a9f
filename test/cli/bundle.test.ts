/**
 * The built CLI: bin/zonewall.js runs the esbuild bundle (dist/bundle/zonewall.cjs) with the V8 code
 * cache made at build, whose commands run only their own code (a plan on the embedded engine never
 * loads undici), and the manifest validator
 * compiled ahead of time at build matches the schema in the repository (a stale one would be
 * skipped at run time; this test says the build is fresh).
 */
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

/**
 * Runs zonewall with a preloaded probe that reports, at exit, whether any module whose path holds
 * one of `parts` was loaded through require (`NAME loaded: true|false` on stderr).
 */
function zonewallProbing(name: string, parts: string[], args: string[]) {
  const probe = writeManifest(tmp.dir, `probe-${name}.mjs`,
    `import { createRequire } from 'node:module';\nconst parts = ${JSON.stringify(parts)};\nprocess.on('exit', () => { const cache = createRequire(import.meta.url).cache; process.stderr.write(\`${name} loaded: \${Object.keys(cache).some((k) => parts.some((p) => k.includes(p)))}\\n\`); });\n`);
  return zonewall(args, { env: { NODE_OPTIONS: `--import ${probe}` } });
}

describe('the bundled CLI', () => {
  it('bin/zonewall.js runs the bundle through the loader, which V8 accepts the code cache made at build for', () => {
    expect(readFileSync(join(repoRoot, 'bin/zonewall.js'), 'utf8')).toContain("('./cli-loader.cjs').loadCli()");
    const loader = createRequire(import.meta.url)(join(repoRoot, 'bin/cli-loader.cjs')) as {
      loadCli(o?: { cache?: boolean }): { cli: Record<string, unknown>; script: { cachedDataRejected?: boolean } };
    };
    const { cli, script } = loader.loadCli();
    expect(typeof cli.runCli).toBe('function');
    // Rejected (or absent: undefined) would mean every start compiles the whole bundle again.
    expect(script.cachedDataRejected).toBe(false);
  });

  it('runs without its code cache, never on a damaged one or one made from another bundle, and says how to build when the bundle is missing', async () => {
    const copy = join(tmp.dir, 'copy');
    const bin = join(copy, 'bin/zonewall.js');
    cpSync(join(repoRoot, 'bin'), join(copy, 'bin'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
    const missing = await zonewall(['--version'], { bin });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('zonewall is not built yet: run `npm run build` (npm install does it) and try again.\n');
    for (const part of ['dist', 'schemas', 'package.json']) cpSync(join(repoRoot, part), join(copy, part), { recursive: true });
    const file = writeManifest(tmp.dir, 'nocache.yaml', Manifest);
    const planWith = async (state: string) => {
      const plan = await zonewall(['plan', file, '--state-dir', join(tmp.dir, state)], { bin });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('Plan: 2 to add');
    };
    const cacheFile = join(copy, 'dist/bundle/zonewall.cjs.cache');
    const bundleFile = join(copy, 'dist/bundle/zonewall.cjs');
    // Damaged: V8 would abort the process on these bytes (it does not check a cache's contents).
    const damaged = readFileSync(cacheFile);
    for (let i = 1000; i < damaged.length; i += 997) damaged[i]! ^= 0x55;
    writeFileSync(cacheFile, damaged);
    await planWith('state-damaged');
    // Made from another bundle of the same length: V8 checks only the length.
    cpSync(join(repoRoot, 'dist/bundle/zonewall.cjs.cache'), cacheFile);
    const bundle = readFileSync(bundleFile, 'utf8');
    expect(bundle).toContain('Declarative reconciler');
    writeFileSync(bundleFile, bundle.replace('Declarative reconciler', 'declarative reconciler'));
    expect((await zonewall(['--help'], { bin })).stdout).toContain('declarative reconciler');
    await planWith('state-other');
    rmSync(cacheFile);
    await planWith('state-nocache');
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

  it('--version prints the version alone, without loading any command', async () => {
    const run = await zonewallProbing('sqlite', ['/better-sqlite3/'], ['--version']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('0.1.0\n');
    expect(run.stderr).toContain('sqlite loaded: false');
  });

  it('a plan runs the validator built into the bundle: nothing of ajv is loaded from node_modules', async () => {
    const file = writeManifest(tmp.dir, 'aot.yaml', Manifest);
    const run = await zonewallProbing('ajv', ['/ajv/', 'schema-validator'], ['plan', file, '--state-dir', join(tmp.dir, 'state-aot')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('ajv loaded: false');
    const bad = writeManifest(tmp.dir, 'aot-bad.yaml', Manifest.replace('action: block', 'action: blok'));
    const invalid = await zonewall(['validate', bad]);
    expect(invalid.stdout + invalid.stderr).toMatch(/aot-bad\.yaml:7:13: firewall_rules\.r\.action: .*blok/);
  });

  it('a plan runs better-sqlite3 from the bundle: only its native addon is loaded from node_modules, without `bindings`', async () => {
    const file = writeManifest(tmp.dir, 'sqlite.yaml', Manifest);
    const state = join(tmp.dir, 'state-sqlite');
    const js = await zonewallProbing('sqlite-js', ['/better-sqlite3/lib/', '/bindings/'], ['plan', file, '--state-dir', state]);
    expect(js.code, js.stderr).toBe(0);
    expect(js.stderr).toContain('sqlite-js loaded: false');
    const addon = await zonewallProbing('sqlite-addon', ['/better-sqlite3/build/Release/better_sqlite3.node'], ['plan', file, '--state-dir', state]);
    expect(addon.code, addon.stderr).toBe(0);
    expect(addon.stderr).toContain('sqlite-addon loaded: true');
  });

  it('a plan on the embedded engine does not load the HTTP client', async () => {
    const file = writeManifest(tmp.dir, 'plain.yaml', Manifest);
    const run = await zonewallProbing('undici', ['/undici/'], ['plan', file, '--state-dir', join(tmp.dir, 'state2')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('undici loaded: false');
  });

  it('a plan loads neither node:http (serve), node:child_process (commander\'s executable subcommands) nor node:fs/promises (readline behind it)', async () => {
    const file = writeManifest(tmp.dir, 'builtins.yaml', Manifest);
    const probe = writeManifest(tmp.dir, 'probe-builtins.mjs',
      "process.on('exit', () => { const loaded = process.moduleLoadList.filter((m) => /^NativeModule (http|child_process|fs[/]promises|readline)$/.test(m)); process.stderr.write(`builtins loaded: ${loaded.join(',') || 'none'}\\n`); });\n");
    const run = await zonewall(['plan', file, '--state-dir', join(tmp.dir, 'state-builtins')], { env: { NODE_OPTIONS: `--import ${probe}` } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('builtins loaded: none');
  });

  it('bin/zonewall.js is CommonJS: a run never starts Node\'s ES module loader', async () => {
    const file = writeManifest(tmp.dir, 'cjs.yaml', Manifest);
    // Preloaded with --require: a probe loaded with --import would start the ES module loader itself.
    const probe = writeManifest(tmp.dir, 'probe-esm.cjs',
      "process.on('exit', () => { process.stderr.write(`esm started: ${process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job')}\\n`); });\n");
    for (const args of [['--version'], ['plan', file, '--state-dir', join(tmp.dir, 'state-cjs')]]) {
      const run = await zonewall(args, { env: { NODE_OPTIONS: `--require ${probe}` } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('esm started: false');
    }
  });

  it('the validator compiled at build is the current schema\'s', () => {
    const aot = createRequire(import.meta.url)(join(repoRoot, 'dist/manifest/schema-validator.cjs')) as { schemaHash: string };
    expect(aot.schemaHash).toBe(manifestSchemaHash);
  });
});
