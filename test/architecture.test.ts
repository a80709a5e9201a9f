/**
 * The import direction of DESIGN.md, enforced: every import in `src/` is read (static, re-export
 * and dynamic) and checked against the module table. Modules import each other only through
 * `src/<module>/index.ts` and only downward; `src/errors.ts`, `src/lock-file.ts` and `src/json-text.ts` (neutral: no module's concern) may be imported by all; `src/cli` may
 * import everything; the `src/index.ts` facade re-exports. `plan` is pure: no I/O modules.
 * The Worker (`deploy/worker`) sits on top like the CLI, but imports the engine only through
 * `src/engine/workerd.ts` (no file system, no better-sqlite3) and no Node module itself.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, listFiles, type Import } from './helpers/source-imports.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Who may import whom (DESIGN.md's module table). `cli` and the facade may import all. */
const allowed: Record<string, readonly string[]> = {
  expr: [],
  storage: [],
  // the v4 wire contract: types and constants only, shared by the server and the client
  api: [],
  engine: ['storage', 'expr', 'api'],
  manifest: ['expr', 'api'],
  plan: ['manifest', 'expr', 'api'],
  providers: ['plan', 'manifest', 'engine', 'api'],
  apply: ['plan', 'providers', 'api'],
  migrate: ['manifest', 'plan', 'providers', 'api'],
  // policy tests: the engine's trace evaluators (offline), providers' trace (live), manifests, expressions
  policy: ['manifest', 'expr', 'engine', 'providers', 'api'],
};
const everything = ['cli', 'index.ts'];

/** Packages and node modules that do I/O: the planner must not use them (it is pure). */
const ioModules = /^(node:)?(fs|fs\/promises|net|http|https|http2|child_process|dgram|dns|tls|worker_threads|readline)$|^(undici|better-sqlite3)$/;

/** `plan` for src/plan/x.ts, `index.ts` / `errors.ts` for root files. */
function moduleOf(path: string): string {
  return relative(src, path).split(sep)[0]!;
}

/** Problems with one import, as readable lines (empty when fine). */
function check(imp: Import): string[] {
  const where = `${relative(src, imp.file)}:${imp.line}: import '${imp.specifier}'`;
  const from = moduleOf(imp.file);
  if (!imp.specifier.startsWith('.')) {
    return from === 'plan' && ioModules.test(imp.specifier) ? [`${where}: plan is pure and must not import an I/O module`] : [];
  }
  const target = resolve(dirname(imp.file), imp.specifier.replace(/\.js$/, '.ts'));
  if (!target.startsWith(src + sep)) return [`${where}: leaves src/`];
  const to = moduleOf(target);
  if (to === from || to === 'errors.ts' || to === 'lock-file.ts' || to === 'json-text.ts') return [];
  if (to === 'index.ts' || to === 'cli') return [`${where}: ${from} must not import ${to === 'cli' ? 'the CLI' : 'the facade'}`];
  const rules = everything.includes(from) ? Object.keys(allowed) : allowed[from];
  if (rules === undefined) return [`${where}: module ${from} is not in DESIGN.md's table (add it to this test's table)`];
  const problems: string[] = [];
  if (!rules.includes(to)) problems.push(`${where}: ${from} may not import ${to} (allowed: ${rules.join(', ') || 'nothing of zonewall'})`);
  if (relative(src, target) !== join(to, 'index.ts')) problems.push(`${where}: ${from} must import ${to} through src/${to}/index.ts`);
  if (from === 'providers' && to === 'engine' && !relative(src, imp.file).startsWith(join('providers', 'engine') + sep)) {
    problems.push(`${where}: only providers/engine/ may import the engine`);
  }
  if (relative(src, imp.file) === join('providers', 'provider.ts') && !imp.typeOnly) {
    problems.push(`${where}: providers/provider.ts imports only types`);
  }
  return problems;
}

describe('architecture: import direction (DESIGN.md)', () => {
  const imports = listFiles(src).flatMap(importsOf);

  it('reads the imports of every source file', () => {
    expect(imports.length).toBeGreaterThan(50);
    expect(imports.some((i) => i.specifier === '../expr/index.js' && moduleOf(i.file) === 'plan')).toBe(true);
  });

  it('has no upward or sideways arrow, and goes through index.ts', () => {
    expect(imports.flatMap(check)).toEqual([]);
  });

  it('catches the arrows it is meant to catch', () => {
    const at = (file: string, specifier: string, typeOnly = false) => check({ file: join(src, file), specifier, typeOnly, line: 1 });
    expect(at('plan/diff.ts', '../providers/index.js')).toHaveLength(1);
    expect(at('plan/diff.ts', '../manifest/load.js')).toEqual([expect.stringContaining('through src/manifest/index.ts')]);
    expect(at('plan/diff.ts', 'node:fs')).toHaveLength(1);
    expect(at('expr/parse.ts', '../storage/index.js')).toHaveLength(1);
    expect(at('engine/x.ts', '../manifest/index.js')).toHaveLength(1);
    expect(at('providers/http/x.ts', '../../engine/index.js')).toEqual([expect.stringContaining('only providers/engine/')]);
    expect(at('providers/provider.ts', '../plan/index.js')).toEqual([expect.stringContaining('only types')]);
    expect(at('apply/run.ts', '../cli/main.js')).toHaveLength(1);
    expect(at('cli/commands/plan.ts', '../../plan/diff.js')).toEqual([expect.stringContaining('through src/plan/index.ts')]);
    expect(at('cli/commands/plan.ts', '../../engine/index.js')).toEqual([]);
    expect(at('index.ts', './migrate/index.js')).toEqual([]);
    expect(at('storage/x.ts', '../errors.js')).toEqual([]);
  });
});

const worker = resolve(src, '../deploy/worker');
const workerEntry = join(src, 'engine', 'workerd.ts');

/** Problems with one import of a deploy/worker file. */
function checkWorker(imp: Import): string[] {
  const where = `deploy/worker/${relative(worker, imp.file)}:${imp.line}: import '${imp.specifier}'`;
  if (!imp.specifier.startsWith('.')) return imp.specifier === 'cloudflare:workers' ? [] : [`${where}: the Worker imports no package or Node module (workerd provides cloudflare:workers)`];
  const target = resolve(dirname(imp.file), imp.specifier.replace(/\.js$/, '.ts'));
  if (target.startsWith(worker + sep) || target === workerEntry) return [];
  return [`${where}: the Worker imports zonewall only through src/engine/workerd.ts`];
}

describe('architecture: the Worker (deploy/worker)', () => {
  const imports = listFiles(worker).flatMap(importsOf);

  it('imports the engine only through src/engine/workerd.ts, and no Node module', () => {
    expect(imports.some((i) => i.specifier === '../../src/engine/workerd.js')).toBe(true);
    expect(imports.flatMap(checkWorker)).toEqual([]);
  });

  it('catches the arrows it is meant to catch', () => {
    const at = (specifier: string) => checkWorker({ file: join(worker, 'index.ts'), specifier, typeOnly: false, line: 1 });
    expect(at('../../src/engine/index.js')).toHaveLength(1);
    expect(at('../../src/storage/index.js')).toHaveLength(1);
    expect(at('node:fs')).toHaveLength(1);
    expect(at('./env.js')).toEqual([]);
  });
});
