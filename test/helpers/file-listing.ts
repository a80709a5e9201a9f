/**
 * A directory tree as lines of path, size (or `dir`) and modification time, sorted: two listings
 * are equal when nothing under the directory was created, removed, resized or written.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry under `dir` (itself included) with its size and modification time. */
export function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string): void => {
    const st = statSync(path);
    out.push(`${path} ${st.isDirectory() ? 'dir' : st.size} ${st.mtimeMs}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return out.sort();
}
