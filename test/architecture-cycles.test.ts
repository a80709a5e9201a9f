/**
 * "Files never import each other in a circle" (DESIGN.md), enforced: every import of every file in
 * `src/`, `deploy/worker/`, `bench/` and `support/` is read with the TypeScript API, as the import
 * direction test reads them (static, re-export, dynamic and `import type`: a type-only import is
 * still an arrow, so a cycle through one is still a cycle), the file import graph is built, and Tarjan's algorithm finds its strongly connected components; any
 * component of more than one file (or a file importing itself) is a cycle, listed by its files.
 * Also here: the benchmarks stand on their own, so no file in `bench/` imports from `test/`; what both
 * need lives in `support/`, which imports neither.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, listFiles } from './helpers/source-imports.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'deploy/worker', 'bench', 'support'].map((dir) => join(root, dir));

/** Every module specifier a file names (`importsOf`: type-only imports included). */
function specifiersOf(file: string): string[] {
  return importsOf(file).map((i) => i.specifier);
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), or undefined. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The graph: each file and the files it imports (inside the repository only). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiersOf(file).map((s) => resolveSpecifier(file, s)).filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * Tarjan's strongly connected components, iterative (the graph has hundreds of files). Returns the
 * components that are cycles: more than one file, or one file importing itself.
 */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next); low.set(start, next); next += 1;
    stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge]!;
        frame.edge += 1;
        if (!index.has(to)) {
          index.set(to, next); low.set(to, next); next += 1;
          stack.push(to); onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}

describe('architecture: no import cycles (src/, deploy/worker/, bench/, support/)', () => {
  const files = roots.flatMap(listFiles);
  const graph = importGraph(files);

  it('reads the imports of every file', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(graph.get(join(root, 'src/index.ts'))!.length).toBeGreaterThan(3);
  });

  it('has no cycle (each listed by its files)', () => {
    const cycles = cyclesOf(graph).map((component) => component.map((f) => relative(root, f).split(sep).join('/')).join(' <-> '));
    expect(cycles).toEqual([]);
  });

  it('finds the cycles it is meant to find', () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(cyclesOf(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
    expect(cyclesOf(g({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']]);
    expect(cyclesOf(g({ a: ['a'] }))).toEqual([['a']]);
    expect(cyclesOf(g({ a: ['b'], b: ['c'], c: ['a', 'd'], d: ['e'], e: ['d'] })).sort()).toEqual([['a', 'b', 'c'], ['d', 'e']]);
  });
});

describe('architecture: bench/ does not import test/', () => {
  const inside = (dir: string) => join(root, dir) + sep;
  /** Imports of the files in `from` that reach into one of `dirs`. */
  const reaching = (from: string, dirs: readonly string[]) => listFiles(join(root, from)).flatMap((file) => specifiersOf(file)
    .filter((s) => s.startsWith('.') && dirs.some((d) => resolve(dirname(file), s).startsWith(inside(d))))
    .map((s) => `${relative(root, file).split(sep).join('/')}: import '${s}'`));

  it('no file in bench/ imports a file in test/', () => {
    expect(reaching('bench', ['test'])).toEqual([]);
  });

  it('no file in support/ imports a file in test/ or bench/', () => {
    expect(reaching('support', ['test', 'bench'])).toEqual([]);
  });
});
