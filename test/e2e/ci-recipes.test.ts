/**
 * The GitOps recipes in examples/ci/ run as written. Both workflow files are parsed as YAML; every
 * `run:` step is executed with bash (as GitHub runs it: `bash -eo pipefail`), with `npx zonewall`
 * replaced by the CLI from source, in a temp copy of a `zones/` folder (examples/quickstart.yaml and
 * examples/shared-filters.yaml, their cases in zones/tests/), against a `zonewall serve` child
 * process on 127.0.0.1 whose zones were created first through the engine. The workflows' `${{ }}`
 * expressions for the API URL and token become that server's URL and token.
 *
 * Steps that are not zonewall commands are skipped by the explicit list `Skipped`, each with the
 * reason; any other step must be a zonewall command, so a new step cannot slip by untested.
 *
 * The story: a pull request validates, tests and plans (the plan is markdown for the comment); the
 * merge applies; the drift check finds nothing; then a rule is changed directly through the API,
 * and the drift check fails with its message while the live policy tests name the broken case.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { Engine } from '../../src/engine/index.js';
import { outputOf } from '../helpers/e2e-cli.js';
import { spawnServe, type ServeChild } from '../helpers/serve-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const launcher = fileURLToPath(new URL('../policy/zonewall-cli.ts', import.meta.url));
// Steps run in a temp dir, where `--import tsx` would not resolve: name tsx's loader by path.
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const zonewall = `node --import '${tsx}' '${launcher}'`;
const Token = 'ci-recipes-token-0123456789abcdefghijklmnopq';

/** Steps that are not zonewall commands, by action (without version) or step name, and why they are skipped. */
const Skipped: Record<string, string> = {
  'actions/checkout': 'the test runs in a temp copy of zones/ instead of a checkout',
  'actions/setup-node': 'the test runs on the Node that runs vitest',
  'actions/github-script': 'posts plan.md as a pull-request comment through the GitHub API; the test checks plan.md instead',
  'github/codeql-action/upload-sarif': 'uploads zonewall.sarif to code scanning; test/e2e/ci-scratch-repo.test.ts validates the file against the SARIF schema',
  'Install zonewall': '`npm ci`: zonewall is this very checkout',
};

interface Step { name?: string; uses?: string; run?: string; env?: Record<string, string>; if?: string }
interface Job { if?: string; steps: Step[]; env?: Record<string, string> }
interface Workflow { on: Record<string, unknown>; env?: Record<string, string>; jobs: Record<string, Job> }
interface Ran { name: string; code: number | null; stdout: string; stderr: string }

function loadWorkflow(file: string): Workflow {
  const doc = parseDocument(readFileSync(join(root, file), 'utf8'));
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  expect(doc.warnings.map((e) => e.message)).toEqual([]);
  return doc.toJS() as Workflow;
}

let work: string;
let serve: ServeChild | undefined;
let apiUrl: string;

/** `${{ vars.X }}` / `${{ secrets.X }}` of the API settings become the test server's; anything else is an error. */
function resolveExpressions(text: string): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (expr === 'vars.ZONEWALL_API_URL' || expr === 'secrets.ZONEWALL_API_URL') return apiUrl;
    if (expr === 'secrets.ZONEWALL_API_TOKEN') return Token;
    throw new Error(`a run step or env uses \${{ ${expr} }}, which this test does not know how to provide`);
  });
}

function envOf(...levels: (Record<string, string> | undefined)[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const level of levels) for (const [k, v] of Object.entries(level ?? {})) env[k] = resolveExpressions(String(v));
  return env;
}

/** Runs the job's steps in order (every step, so later ones can be checked after a failure). */
async function runJob(workflow: Workflow, jobName: string): Promise<Ran[]> {
  const job = workflow.jobs[jobName]!;
  const ran: Ran[] = [];
  for (const step of job.steps) {
    const key = step.uses?.replace(/@.*$/, '') ?? step.name ?? '';
    if (Object.hasOwn(Skipped, key)) continue;
    expect(step.run, `step "${step.name ?? step.uses}" is neither a zonewall command nor listed in Skipped`).toMatch(/\bnpx zonewall\b/);
    const script = resolveExpressions(step.run!).replace(/\bnpx zonewall\b/g, zonewall);
    const env = { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: join(work, 'summary.md'), ...envOf(workflow.env, job.env, step.env) };
    ran.push({ name: step.name ?? '', ...(await bash(script, env)) });
  }
  return ran;
}

function bash(script: string, env: NodeJS.ProcessEnv): Promise<Omit<Ran, 'name'>> {
  const file = join(work, 'step.sh');
  writeFileSync(file, script);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd: work, env });
  return outputOf(child);
}

const byName = (ran: Ran[], name: string): Ran => ran.find((r) => r.name === name) ?? expect.fail(`no step "${name}" ran`);

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${apiUrl}${path}`, {
    method, headers: { Authorization: `Bearer ${Token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { success: boolean; result: unknown; errors: unknown[] };
  expect(envelope.errors).toEqual([]);
  return envelope.result;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'zw-ci-'));
  mkdirSync(join(work, 'zones', 'tests'), { recursive: true });
  for (const name of ['quickstart', 'shared-filters']) {
    copyFileSync(join(root, 'examples', `${name}.yaml`), join(work, 'zones', `${name}.yaml`));
    copyFileSync(join(root, 'examples', 'tests', `${name}.tests.yaml`), join(work, 'zones', 'tests', `${name}.tests.yaml`));
  }
  // The zones exist before the pipeline runs (a remote API never creates zones).
  const state = join(work, 'state');
  const engine = await Engine.open({ dir: state });
  await engine.createZone('quickstart.example.com', { plan: 'pro' });
  await engine.createZone('shared.example.com', { plan: 'business' });
  await engine.close();
  serve = spawnServe(['--import', tsx, launcher, 'serve', '--port', '0', '--state-dir', state], { cwd: work, env: { ...process.env, ZONEWALL_SERVE_TOKEN: Token } });
  apiUrl = await serve.url;
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('examples/ci/github-actions.yml', () => {
  const workflow = loadWorkflow('examples/ci/github-actions.yml');

  it('checks pull requests and applies pushes to main, with the API settings from vars and secrets', () => {
    expect(Object.keys(workflow.on)).toEqual(['pull_request', 'push']);
    expect((workflow.on.push as { branches: string[] }).branches).toEqual(['main']);
    expect(workflow.jobs.check!.if).toBe("github.event_name == 'pull_request'");
    expect(workflow.jobs.apply!.if).toBe("github.event_name == 'push'");
    expect(workflow.env).toEqual({ ZONEWALL_API_URL: '${{ vars.ZONEWALL_API_URL }}', ZONEWALL_API_TOKEN: '${{ secrets.ZONEWALL_API_TOKEN }}' });
    const comment = workflow.jobs.check!.steps.find((s) => s.uses?.startsWith('actions/github-script'));
    expect((comment as { with: { script: string } }).with.script).toContain("fs.readFileSync('plan.md', 'utf8')");
  });

  it('a pull request: validate, test and plan as markdown succeed', { timeout: 180_000 }, async () => {
    const ran = await runJob(workflow, 'check');
    expect(ran.map((r) => [r.name, r.code])).toEqual([
      ['Validate the manifests', 0], ['Lint the manifests as SARIF', 0], ['Run the policy tests offline', 0], ['Plan every zone', 0],
    ]);
    expect(byName(ran, 'Validate the manifests').stdout).toContain('2 manifests valid');
    expect(byName(ran, 'Run the policy tests offline').stdout).toMatch(/total: \d+ passed, 0 failed in 2 zones/);
    const plan = readFileSync(join(work, 'plan.md'), 'utf8');
    expect(plan).toContain('quickstart.example.com');
    expect(plan).toContain('shared.example.com');
    expect(plan).toContain('block-sqlmap');
  });

  it('the merge: apply --auto-approve succeeds', { timeout: 180_000 }, async () => {
    const ran = await runJob(workflow, 'apply');
    expect(ran.map((r) => [r.name, r.code, r.stderr])).toEqual([['Apply every zone', 0, expect.any(String)]]);
    expect(byName(ran, 'Apply every zone').stdout).toContain('Apply complete for quickstart.example.com');
  });
});

describe('examples/ci/drift.yml', () => {
  const workflow = loadWorkflow('examples/ci/drift.yml');

  it('runs on a schedule (and by hand)', () => {
    expect(Object.keys(workflow.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect((workflow.on.schedule as { cron: string }[])[0]!.cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
  });

  it('after the apply: no drift, and the live policy tests pass', { timeout: 180_000 }, async () => {
    const ran = await runJob(workflow, 'drift');
    expect(ran.map((r) => [r.name, r.code])).toEqual([['Plan against the live zones', 0], ['Run the policy tests against the live zones', 0]]);
    expect(byName(ran, 'Plan against the live zones').stdout).toContain('No drift: every zone matches zones/.');
    expect(byName(ran, 'Run the policy tests against the live zones').stdout).toContain('against the live zone');
  });

  it('after a change through the API: the plan exits 2, the job fails with the drift message, and the live tests fail', { timeout: 180_000 }, async () => {
    const zones = (await api('GET', '/zones?name=quickstart.example.com')) as { id: string }[];
    const zoneId = zones[0]!.id;
    const rules = (await api('GET', `/zones/${zoneId}/firewall/rules`)) as { id: string; ref?: string; priority: number | null; filter: { id: string } }[];
    const sqlmap = rules.find((r) => r.ref === 'block-sqlmap')!;
    await api('PUT', `/zones/${zoneId}/firewall/rules/${sqlmap.id}`, { id: sqlmap.id, action: 'challenge', priority: sqlmap.priority, paused: false, ref: 'block-sqlmap', filter: { id: sqlmap.filter.id } });

    const ran = await runJob(workflow, 'drift');
    expect(ran.map((r) => [r.name, r.code])).toEqual([['Plan against the live zones', 1], ['Run the policy tests against the live zones', 1]]);
    const plan = byName(ran, 'Plan against the live zones');
    expect(plan.stdout).toContain('::error title=Drift detected::the live zones differ from zones/');
    expect(plan.stdout).toContain('block-sqlmap');
    const tests = byName(ran, 'Run the policy tests against the live zones');
    expect(tests.stdout).toMatch(/FAIL {4}sqlmap is blocked +block, firewall_rules\.block-sqlmap +challenge +firewall_rules\.block-sqlmap/);
    expect(existsSync(join(work, 'plan.txt'))).toBe(true);
  });
});
