/**
 * examples/ci/github-actions.yml as a new user runs it: zonewall installed the way the recipe says
 * (it is not on the npm registry: `npm pack` of this checkout, committed as
 * vendor/zonewall-0.1.0.tgz, a `file:` dependency in package.json), in a scratch git repository
 * (git init in a temp dir) holding zones/. No network: the tarball's own dependencies are copied
 * from this checkout's node_modules (what the registry would give; npm --offline completes them from
 * its local cache, which `npm ci` of this checkout filled), and the install step's `npm ci` runs as
 * `npm install --offline` (npm ci empties node_modules and would fetch them). Every other
 * `run:` step runs as written with bash, through the installed `npx zonewall`, honouring the steps'
 * `if:` (`!cancelled()` runs after a failure, no `if` does not), against a `zonewall serve` started
 * from the installed package. A good pull request passes every step; a broken manifest fails
 * validate and the plan, yet the SARIF log is written (valid against schemas/sarif-2.1.0.schema.json)
 * and the plan markdown for the comment names the error beside the other zones' plans.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { outputOf } from '../helpers/e2e-cli.js';
import { spawnServe, type ServeChild } from '../helpers/serve-child.js';

const root = join(import.meta.dirname, '..', '..');
const Token = 'ci-scratch-token-0123456789abcdefghijklmnopq';

interface Step { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, string> }
interface Workflow { env?: Record<string, string>; jobs: Record<string, { steps: Step[] }> }
interface Ran { name: string; code: number | null; stdout: string; stderr: string }

let dir: string;
let repo: string;
let serve: ServeChild | undefined;
let apiUrl = '';

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The production dependency closure of a package, as folders of this checkout's node_modules. */
function closure(name: string, seen = new Set<string>()): Set<string> {
  const manifest = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    if (seen.has(dep) || !existsSync(join(root, 'node_modules', dep, 'package.json'))) continue;
    seen.add(dep);
    closure(dep, seen);
  }
  return seen;
}

function bash(script: string, env: NodeJS.ProcessEnv): Promise<Omit<Ran, 'name'>> {
  const file = join(dir, 'step.sh');
  writeFileSync(file, script);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd: repo, env });
  return outputOf(child);
}

/** Runs a job's steps as the runner would: `uses:` steps are recorded, not run; `if:` decides after a failure. */
async function runJob(workflow: Workflow, job: string): Promise<Ran[]> {
  const ran: Ran[] = [];
  let failed = false;
  for (const step of workflow.jobs[job]!.steps) {
    const always = step.if === '${{ !cancelled() }}';
    expect(step.if === undefined || always, `step ${step.name}: if ${step.if}`).toBe(true);
    if (failed && !always) { ran.push({ name: step.name ?? step.uses ?? '', code: null, stdout: 'skipped', stderr: '' }); continue; }
    if (step.run === undefined) { ran.push({ name: step.name ?? step.uses ?? '', code: 0, stdout: 'uses', stderr: '' }); continue; }
    // No network: npm ci would empty node_modules and fetch the tarball's dependencies from the registry.
    const script = step.run === 'npm ci' ? 'npm install --offline --no-audit --no-fund' : step.run;
    const env = {
      ...process.env, NO_COLOR: '1', ZONEWALL_API_URL: apiUrl, ZONEWALL_API_TOKEN: Token,
    };
    const r = await bash(script, env);
    ran.push({ name: step.name ?? '', ...r });
    if (r.code !== 0) failed = true;
  }
  return ran;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-ci-scratch-'));
  repo = join(dir, 'repo');
  mkdirSync(join(repo, 'zones', 'tests'), { recursive: true });
  mkdirSync(join(repo, 'vendor'));
  // The recipe's first step: pack zonewall (built by `npm run build`) into the repository.
  sh('npm', ['pack', '--ignore-scripts', '--pack-destination', join(repo, 'vendor')], root);
  expect(existsSync(join(repo, 'vendor', 'zonewall-0.1.0.tgz'))).toBe(true);
  for (const name of ['quickstart', 'shared-filters']) {
    copyFileSync(join(root, 'examples', `${name}.yaml`), join(repo, 'zones', `${name}.yaml`));
    copyFileSync(join(root, 'examples', 'tests', `${name}.tests.yaml`), join(repo, 'zones', 'tests', `${name}.tests.yaml`));
  }
  mkdirSync(join(repo, '.github', 'workflows'), { recursive: true });
  copyFileSync(join(root, 'examples', 'ci', 'github-actions.yml'), join(repo, '.github', 'workflows', 'zonewall.yml'));
  writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ name: 'zones', private: true }, null, 2)}\n`);
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n*.sarif\nplan.md\n');
  // What the registry would give: zonewall's dependencies, copied from this checkout.
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const deps = new Set<string>();
  for (const dep of Object.keys(rootManifest.dependencies)) { deps.add(dep); closure(dep, deps); }
  for (const dep of deps) cpSync(join(root, 'node_modules', dep), join(repo, 'node_modules', dep), { recursive: true, dereference: true });
  // The documented install: npm install --save ./vendor/zonewall-0.1.0.tgz (a file: dependency).
  sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--save', './vendor/zonewall-0.1.0.tgz'], repo);
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect(pkg.dependencies.zonewall).toBe('file:vendor/zonewall-0.1.0.tgz');
  const git = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.test' };
  sh('git', ['init', '-q', '-b', 'main'], repo);
  sh('git', ['add', '-A'], repo, git);
  sh('git', ['commit', '-qm', 'zones'], repo, git);
  // The API the workflow's variable names: a zonewall serve, from the installed package, with the zones created.
  const bin = join(repo, 'node_modules', '.bin', 'zonewall');
  const state = join(dir, 'state');
  sh(bin, ['engine', 'zone', 'create', 'quickstart.example.com', '--plan', 'pro', '--state-dir', state], repo);
  sh(bin, ['engine', 'zone', 'create', 'shared.example.com', '--plan', 'business', '--state-dir', state], repo);
  // Node runs the installed bin (a symlink to the package's bin/zonewall.js), as its shebang would.
  serve = spawnServe([bin, 'serve', '--port', '0', '--state-dir', state], { cwd: repo, env: { ...process.env, ZONEWALL_SERVE_TOKEN: Token } });
  apiUrl = await serve.url;
}, 240_000);

afterAll(async () => {
  await serve?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const workflow = parse(readFileSync(join(root, 'examples', 'ci', 'github-actions.yml'), 'utf8')) as Workflow;
const sarifSchema = JSON.parse(readFileSync(join(root, 'schemas', 'sarif-2.1.0.schema.json'), 'utf8')) as object;
const codes = (ran: Ran[]) => ran.map((r) => [r.name, r.code]);

describe('examples/ci/github-actions.yml in a scratch repository, zonewall installed from its packed tarball', () => {
  it('a good pull request: install, validate, lint as SARIF, test, plan as markdown: every step passes', { timeout: 240_000 }, async () => {
    const ran = await runJob(workflow, 'check');
    expect(codes(ran)).toEqual([
      ['actions/checkout@v4', 0], ['actions/setup-node@v4', 0], ['Install zonewall', 0], ['Validate the manifests', 0], ['Lint the manifests as SARIF', 0],
      ['Upload the lint results', 0], ['Run the policy tests offline', 0], ['Plan every zone', 0], ['Post the plan on the pull request', 0],
    ]);
    expect(ran.find((r) => r.name === 'Validate the manifests')!.stdout).toContain('2 manifests valid');
    const log = JSON.parse(readFileSync(join(repo, 'zonewall.sarif'), 'utf8')) as { runs: { results: unknown[] }[] };
    expect(new Ajv.default({ strict: false, validateFormats: false }).validate(sarifSchema, log)).toBe(true);
    expect(log.runs[0]!.results).toEqual([]);
    const plan = readFileSync(join(repo, 'plan.md'), 'utf8');
    expect(plan).toContain('### zonewall plan: quickstart.example.com');
    expect(plan).toContain('block-sqlmap');
  });

  it('a broken manifest: validate fails, the SARIF names it, the plan fails with the error in the markdown, and the comment step still runs', { timeout: 240_000 }, async () => {
    writeFileSync(join(repo, 'zones', 'broken.yaml'), 'zone: broken.example.com\ncustom_rules:\n  bad:\n    action: frobnicate\n    expression: http.host eq "a"\n');
    const ran = await runJob(workflow, 'check');
    expect(codes(ran)).toEqual([
      ['actions/checkout@v4', 0], ['actions/setup-node@v4', 0], ['Install zonewall', 0], ['Validate the manifests', 1], ['Lint the manifests as SARIF', 0],
      ['Upload the lint results', 0], ['Run the policy tests offline', null], ['Plan every zone', 1], ['Post the plan on the pull request', 0],
    ]);
    const log = JSON.parse(readFileSync(join(repo, 'zonewall.sarif'), 'utf8')) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
    expect(new Ajv.default({ strict: false, validateFormats: false }).validate(sarifSchema, log)).toBe(true);
    expect(log.runs[0]!.results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri, r.locations[0]!.physicalLocation.region.startLine])).toEqual([['ZW001', 'zones/broken.yaml', 4]]);
    const plan = readFileSync(join(repo, 'plan.md'), 'utf8');
    expect(plan).toMatch(/### zonewall: 1 manifest error in 1 file \(not planned\)\n\n```\nzones\/broken\.yaml:4:13: custom_rules\.bad\.action: must be one of/);
    expect(plan).toContain('### zonewall plan: quickstart.example.com');
    expect(plan).toContain('### zonewall plan: shared.example.com');
  });
});
