/**
 * A function declared under one exported name in two places reads as one piece of logic to a reader
 * (and to `duplicates`) when it is two. These were: the same logic now serves from one place
 * (`format` of src/expr, the validators' `builtModule`), the rest were renamed to say what differs.
 * (`owaspOverrides` of the engine and of src/migrate stay apart on purpose.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const Names = ['readMigrationStatus', 'deletePageRule', 'jsonType', 'lockDir', 'formatValue', 'format', 'aheadOfTimeModule', 'gatedFieldProblems'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('architecture: one exported declaration a name', () => {
  const files = tsFiles(src).map((f) => ({ file: relative(src, f), text: readFileSync(f, 'utf8') }));

  it.each(Names)('%s is declared and exported in one file at most', (name) => {
    const declared = new RegExp(`^export (?:async )?(?:function|const|class) ${name}\\b`, 'm');
    expect(files.filter((f) => declared.test(f.text)).map((f) => f.file).length).toBeLessThanOrEqual(1);
  });
});
