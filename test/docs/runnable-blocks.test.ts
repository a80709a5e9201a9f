/**
 * The documentation's runnable shell blocks, run as written (docs/README.md, "Runnable blocks"): every
 * ```sh block of README.md and docs/*.md whose opening fence follows a line `<!-- runnable -->` runs
 * as a `bash -e` script in a fresh temporary directory holding a copy of examples/ and an empty
 * .zonewall/, with `zonewall` and `npx zonewall` resolving to the built CLI, no ZONEWALL_* variable
 * inherited, HOME and TMPDIR inside the temporary directory, and ZONEWALL_REPO naming the repository.
 * Each block must exit 0.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, tempDir } from '../helpers/e2e-cli.js';

/** The marker: alone on the line before a block's opening fence. */
const Marker = '<!-- runnable -->';
const BlockTimeoutMs = 60_000;

interface Block {
  file: string;
  line: number;
  script: string;
}

/** The runnable blocks of one markdown file (`file` relative to the repository). */
function runnableBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let fence = ''; // the backticks of the fenced block the line is in ('' outside): a marker shown inside one is an example
  for (let i = 0; i < lines.length; i++) {
    const ticks = /^(`{3,})/.exec(lines[i]!)?.[1];
    if (ticks !== undefined && (fence === '' || ticks === fence)) fence = fence === '' ? ticks : '';
    if (fence !== '' || lines[i]!.trim() !== Marker) continue;
    const opening = lines[i + 1] ?? '';
    if (!/^```(sh|bash)\s*$/.test(opening)) throw new Error(`${file}:${i + 1}: ${Marker} must be followed by a \`\`\`sh fence, not ${JSON.stringify(opening)}`);
    const end = lines.findIndex((l, j) => j > i + 1 && l.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 2}: the runnable block is not closed`);
    blocks.push({ file, line: i + 2, script: lines.slice(i + 2, end).join('\n') + '\n' });
  }
  return blocks;
}

function documents(): { file: string; text: string }[] {
  const docs = readdirSync(join(repoRoot, 'docs')).filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`);
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(join(repoRoot, file), 'utf8') }));
}

/** The environment of a block: the test's, without ZONEWALL_*, the shims first on PATH. */
function blockEnv(root: string, shims: string): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('ZONEWALL_') || k.startsWith('npm_')) delete env[k];
  return { ...env, NO_COLOR: '1', HOME: join(root, 'home'), TMPDIR: join(root, 'tmp'), ZONEWALL_REPO: repoRoot, PATH: `${shims}:${env.PATH ?? ''}` };
}

/** `zonewall` and `npx zonewall` run the built CLI; any other npx is refused (no network). */
function writeShims(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const cli = join(repoRoot, 'bin', 'zonewall.js');
  const node = process.execPath;
  writeFileSync(join(dir, 'zonewall'), `#!/bin/sh\nexec '${node}' '${cli}' "$@"\n`);
  writeFileSync(join(dir, 'npx'), `#!/bin/sh\nif [ "$1" = zonewall ]; then shift; exec '${node}' '${cli}' "$@"; fi\necho "runnable blocks may use npx only for zonewall (got: npx $*)" >&2\nexit 127\n`);
  chmodSync(join(dir, 'zonewall'), 0o755);
  chmodSync(join(dir, 'npx'), 0o755);
}

/** Runs a block; resolves with its exit code and output. Kills its process group on timeout. */
function run(block: Block, root: string, shims: string): Promise<{ code: number | null; output: string }> {
  const work = join(root, 'work');
  mkdirSync(join(work, '.zonewall'), { recursive: true });
  mkdirSync(join(root, 'home'), { recursive: true });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  cpSync(join(repoRoot, 'examples'), join(work, 'examples'), { recursive: true });
  const script = join(root, 'block.sh');
  writeFileSync(script, block.script);
  const child = spawn('bash', ['-e', script], { cwd: work, env: blockEnv(root, shims), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
  const timer = setTimeout(() => {
    output += `\n[killed after ${BlockTimeoutMs / 1000} s]`;
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
  }, BlockTimeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // A server the block left behind would outlive it: stop the group either way.
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* none left */ }
      resolve({ code, output });
    });
  });
}

const blocks = documents().flatMap(({ file, text }) => runnableBlocks(file, text));
const temps: { cleanup(): void }[] = [];
afterAll(() => { for (const t of temps) t.cleanup(); });

describe('runnable blocks of the documentation', () => {
  it('finds the marked blocks: the README\'s two tours and some in docs/', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((b) => b.file.startsWith('docs/')).length).toBeGreaterThanOrEqual(4);
  });

  it('reads the marker only before a sh fence', () => {
    expect(runnableBlocks('x.md', `text\n${Marker}\n\`\`\`sh\necho hi\n\`\`\`\n`)).toEqual([{ file: 'x.md', line: 3, script: 'echo hi\n' }]);
    expect(() => runnableBlocks('x.md', `${Marker}\n\`\`\`yaml\na: 1\n\`\`\`\n`)).toThrow(/must be followed by a ```sh fence/);
    expect(runnableBlocks('x.md', `\`\`\`\`markdown\n${Marker}\n\`\`\`sh\necho hi\n\`\`\`\n\`\`\`\`\n`)).toEqual([]);
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} runs`, async () => {
      requireBuild();
      const tmp = tempDir('docs-block');
      temps.push(tmp);
      const shims = join(tmp.dir, 'bin');
      writeShims(shims);
      const { code, output } = await run(block, tmp.dir, shims);
      expect(code, `${block.file}:${block.line}\n${block.script}\n--- output ---\n${output}`).toBe(0);
    }, BlockTimeoutMs + 10_000);
  }
});
