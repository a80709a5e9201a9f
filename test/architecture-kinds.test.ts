/**
 * The kinds are the unit of extension (docs/architecture.md): the cores of the manifest, the planner,
 * its renderers and apply name no kind. Only the kinds' own folders (and apply's files named after a
 * kind), the registration lists (`kinds.ts`, apply's `executors.ts`) and the kinds' shared interface
 * (`kind.ts`) may. A word of a kind in a core file is a branch on that kind, or a comment that will
 * be wrong once another kind is added.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const KindNames = ['firewall', 'custom-rules', 'managed-rules', 'previous-waf', 'page-rules', 'migration'];
/** The words of kinds that are not the firewall's own vocabulary (filters and rules are everyone's). */
const KindWords = /custom[ _-]?rules?|customrule|customentrypoint|page[ _-]?rules?|pagerules|previous[ _-]?waf|managed[ _-]?rulesets?|managedrules?|waf[ _-]?migration/i;
const Allowed = new Set(['kinds.ts', 'kind.ts', 'executors.ts', 'index.ts']);

/** The core files of a folder: its own `.ts` files (not its kinds' folders), minus the allowed ones. */
function coreFiles(dir: string): string[] {
  return readdirSync(join(src, dir), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !Allowed.has(e.name) && !KindNames.includes(e.name.replace(/\.ts$/, '')))
    .map((e) => join(dir, e.name));
}

describe('architecture: the cores name no kind', () => {
  const files = ['plan', 'plan/render', 'apply', 'manifest'].flatMap(coreFiles);

  it('reads the core files', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files).toContain(join('plan', 'diff.ts'));
  });

  it('finds no kind word outside the kinds, their registration lists and their interface', () => {
    const found = files.flatMap((file) => readFileSync(join(src, file), 'utf8').split('\n')
      .flatMap((line, i) => (KindWords.test(line) ? [`src/${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(found).toEqual([]);
  });

  it('has each kind as a folder of the manifest and of the planner', () => {
    for (const layer of ['manifest', 'plan']) {
      const folders = readdirSync(join(src, layer), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
      expect(folders).toEqual(expect.arrayContaining(KindNames));
    }
  });
});
