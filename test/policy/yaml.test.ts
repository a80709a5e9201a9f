import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readPositionedYaml } from '../../src/policy/yaml.js';

const examples = join(import.meta.dirname, '..', '..', 'examples', 'tests');

describe('cases files read as plain YAML (the fast reader) or with the yaml package', () => {
  it.each(readdirSync(examples).filter((f) => f.endsWith('.yaml')))('%s: the same data as the yaml package reads', (name) => {
    const text = readFileSync(join(examples, name), 'utf8');
    const read = readPositionedYaml(text, name);
    expect(read.problems).toEqual([]);
    expect(read.data).toEqual(parse(text));
  });

  it('places issues as the yaml path does: a container by its key, a scalar on itself', () => {
    const text = 'cases:\n  - name: a\n    request: {path: /x}\n    burst:\n      vary:\n        ip: |\n          10.0.0.1\n          10.0.0.2\n';
    const fast = readPositionedYaml(text, 'c.yaml');
    // An anchor is not plain YAML for the fast reader: the same lines, and one more, through the yaml package.
    const slow = readPositionedYaml(`${text}    note: &n x\n`, 'c.yaml');
    for (const [path, anchor] of [[['cases', 0, 'burst', 'vary', 'ip'], 'node'], [['cases', 0, 'request'], 'node'], [['cases', 0, 'name'], 'node'], [['cases', 0, 'name'], 'key']] as const) {
      const a = fast.issue([...path], 'm', anchor);
      const b = slow.issue([...path], 'm', anchor);
      expect({ line: a.line, column: a.column, path: a.path }).toEqual({ line: b.line, column: b.column, path: b.path });
    }
    const { note, ...rest } = (slow.data as { cases: Record<string, unknown>[] }).cases[0]!;
    expect(note).toBe('x');
    expect(fast.data).toEqual({ cases: [rest] });
  });

  it('a list or map as a key is a located problem, as in a manifest, and nothing is printed by the yaml package', () => {
    const warnings: string[] = [];
    const listen = (w: Error) => warnings.push(w.message);
    process.on('warning', listen);
    try {
      for (const [text, line, column] of [
        ['cases:\n  - name: x\n    ? { action: block }\n    request: { path: / }\n', 3, 7],
        ['cases:\n  - name: x\n    ? [a, b]\n    : 1\n', 3, 7],
        ['k: &k [a]\ncases:\n  - name: x\n    *k : 1\n', 4, 5],
      ] as const) {
        const read = readPositionedYaml(text, 'c.yaml');
        expect(read.data).toBeUndefined();
        expect(read.problems.map((p) => [p.line, p.column, p.message])).toEqual([[line, column, 'keys must be plain strings, not lists or maps']]);
      }
    } finally {
      process.off('warning', listen);
    }
    expect(warnings).toEqual([]);
  });
});

