/**
 * Where a manifest's cases live when `--cases` does not say. For `zones/example.com.yaml`:
 *
 * 1. `zones/example.com.tests.yaml` (or `.tests.yml`), beside the manifest;
 * 2. `zones/tests/example.com.tests.yaml` (or `.tests.yml`), in a `tests/` folder beside it.
 *
 * The second keeps a directory of manifests free of other YAML files, so `zonewall validate
 * zones/` and `zonewall plan zones/` (which read every `*.yaml` in the directory) never see cases.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const casesSuffix = /\.tests\.ya?ml$/i;

/** Whether a path names a cases file (`*.tests.yaml`, `*.tests.yml`). */
export function isCasesFile(path: string): boolean {
  return casesSuffix.test(path);
}

/** The default cases files of a manifest, in lookup order. */
export function defaultCasesFiles(manifest: string): string[] {
  const dir = dirname(manifest);
  const base = basename(manifest).replace(/\.ya?ml$/i, '');
  return [
    join(dir, `${base}.tests.yaml`), join(dir, `${base}.tests.yml`),
    join(dir, 'tests', `${base}.tests.yaml`), join(dir, 'tests', `${base}.tests.yml`),
  ];
}

/** The first default cases file of `manifest` that exists, or undefined. */
export async function findCasesFile(manifest: string): Promise<string | undefined> {
  for (const candidate of defaultCasesFiles(manifest)) {
    try {
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // Not there: try the next place.
    }
  }
  return undefined;
}
