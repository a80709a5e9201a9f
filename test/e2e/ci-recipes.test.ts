/**
 * The GitOps recipes in examples/ci/ run as written. Both workflow files are parsed as YAML; every
 * `run:` step is executed with bash (as GitHub runs it: `bash -eo pipefail`), with `npx --no zonewall`
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
    expect(step.run, `step "${step.name ?? step.uses}" is neither a zonewall command nor listed in Skipped`).toMatch(/\bnpx --no zonewall\b/);
    const script = resolveExpressions(step.run!).replace(/\bnpx --no zonewall\b/g, zonewall);
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

describe('examples/ci: zonewall is the installed one, never a package fetched from the registry', () => {
  // npx without a terminal (CI) installs a package it does not find and runs it: after a failed
  // `npm ci`, the steps that run anyway (`if: !cancelled()`) would run the registry's "zonewall",
  // whoever published it, with ZONEWALL_API_TOKEN in the environment. `npx --no` refuses instead.
  for (const file of ['examples/ci/github-actions.yml', 'examples/ci/drift.yml']) {
    it(`${file}: every zonewall command is \`npx --no zonewall\``, () => {
      const workflow = loadWorkflow(file);
      const runs = Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run === undefined ? [] : [s.run])));
      const commands = runs.flatMap((r) => r.match(/\bnpx\b[^\n]*/g) ?? []);
      expect(commands.length).toBeGreaterThan(0);
      for (const c of commands) expect(c).toMatch(/^npx --no zonewall /);
    });
  }
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

/** A pull request's comments on a fake GitHub, as `actions/github-script` gives the script `github` and `context`. */
function fakeGitHub(): { github: unknown; context: unknown; comments: { id: number; body: string }[] } {
  const comments: { id: number; body: string }[] = [];
  const github = {
    paginate: async (_list: unknown, args: { issue_number: number }) => { expect(args.issue_number).toBe(7); return comments.map((c) => ({ ...c })); },
    rest: {
      issues: {
        listComments: {},
        createComment: async (a: { body: string }) => { comments.push({ id: comments.length + 1, body: a.body }); },
        updateComment: async (a: { comment_id: number; body: string }) => { comments.find((c) => c.id === a.comment_id)!.body = a.body; },
      },
    },
  };
  const context = { repo: { owner: 'acme', repo: 'zones' }, issue: { number: 7 }, serverUrl: 'https://github.com', runId: 42 };
  return { github, context, comments };
}

/** Runs the workflow's github-script step as the action does (an async function of `require`, `github`, `context`), with plan.md in `dir`. */
async function postComment(workflow: Workflow, dir: string, gh: ReturnType<typeof fakeGitHub>): Promise<void> {
  const step = workflow.jobs.check!.steps.find((s) => s.uses?.startsWith('actions/github-script')) as { with: { script: string } };
  // The script reads plan.md relative to the checkout: its `fs` reads from `dir`.
  const fsOf = { existsSync: (p: string) => existsSync(join(dir, p)), readFileSync: (p: string, enc: 'utf8') => readFileSync(join(dir, p), enc) };
  const requireOf = (name: string) => { expect(name).toBe('fs'); return fsOf; };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  await new AsyncFunction('require', 'github', 'context', step.with.script)(requireOf, gh.github, gh.context);
}

describe('examples/ci/github-actions.yml: the plan comment', () => {
  const workflow = loadWorkflow('examples/ci/github-actions.yml');

  it('posts plan.md after the marker, then updates that comment on the next push', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-ci-comment-'));
    try {
      const gh = fakeGitHub();
      writeFileSync(join(dir, 'plan.md'), '### zonewall plan: a.example.com\n\nNo changes.\n');
      await postComment(workflow, dir, gh);
      writeFileSync(join(dir, 'plan.md'), '### zonewall plan: a.example.com\n\n**Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.**\n');
      await postComment(workflow, dir, gh);
      expect(gh.comments).toEqual([{ id: 1, body: '<!-- zonewall-plan -->\n### zonewall plan: a.example.com\n\n**Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.**\n' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a plan over GitHub\'s 65,536 characters for a comment keeps whole zone sections and the total, and names the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-ci-comment-'));
    try {
      // 40 zones of 100 created rules each, as `plan --markdown` prints them (an initial import).
      const zone = (n: number) => [`### zonewall plan: z${n}.example.com`, '', `**Plan: 100 to add, 0 to change, 0 to replace, 0 to destroy.**`, '', '| | kind | ref | id | changes |', '|---|---|---|---|---|',
        ...Array.from({ length: 100 }, (_, i) => `| \`+\` | custom_rule | \`rule-${i}\` |  | action: \`block\`<br>expression: \`ip.src eq 192.0.2.${i}\` |`), '', '<details><summary>Expression changes</summary>', '', '```diff', '- a', '+ b', '```', '', '</details>', ''].join('\n');
      const plan = `${Array.from({ length: 40 }, (_, n) => zone(n)).join('\n')}\n**Total over 40 zones: Plan: 4000 to add, 0 to change, 0 to replace, 0 to destroy.**\n\n40 zones: 40 with changes, 0 up to date, 0 failed.\n`;
      expect(plan.length).toBeGreaterThan(65_536);
      writeFileSync(join(dir, 'plan.md'), plan);
      const gh = fakeGitHub();
      await postComment(workflow, dir, gh);
      const body = gh.comments[0]!.body;
      expect(body.length).toBeLessThanOrEqual(65_536);
      expect(body.startsWith('<!-- zonewall-plan -->\n### zonewall plan: z0.example.com\n')).toBe(true);
      const kept = body.match(/^### zonewall plan: /gm)!.length;
      expect(kept).toBeGreaterThan(0);
      // Whole sections only: every fence and <details> that opens also closes.
      expect((body.match(/^```/gm) ?? []).length % 2).toBe(0);
      expect((body.match(/<details>/g) ?? []).length).toBe((body.match(/<\/details>/g) ?? []).length);
      expect(body).toContain(`**The plan is too long for a comment (${plan.length} characters): ${40 - kept} more section(s) in [the job log](https://github.com/acme/zones/actions/runs/42): z${kept}.example.com, `);
      expect(body.endsWith('**Total over 40 zones: Plan: 4000 to add, 0 to change, 0 to replace, 0 to destroy.**\n\n40 zones: 40 with changes, 0 up to date, 0 failed.\n')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    expect(byName(ran, 'Plan against the live zones').stdout).not.toContain('::warning');
    expect(byName(ran, 'Run the policy tests against the live zones').stdout).toContain('against the live zone');
  });

  it('after an object is added through the API (no manifest has it): no drift, and a warning names it', { timeout: 180_000 }, async () => {
    const zones = (await api('GET', '/zones?name=quickstart.example.com')) as { id: string }[];
    // A filter alone decides nothing, so the later cases are not affected.
    await api('POST', `/zones/${zones[0]!.id}/filters`, [{ expression: 'ip.src eq 198.51.100.77', description: 'added on the dashboard' }]);
    const ran = await runJob(workflow, 'drift');
    expect(ran.map((r) => [r.name, r.code])).toEqual([['Plan against the live zones', 0], ['Run the policy tests against the live zones', 0]]);
    const plan = byName(ran, 'Plan against the live zones').stdout;
    expect(plan).toContain('? filter ');
    expect(plan).toContain('No drift: every zone matches zones/.');
    expect(plan).toContain('::warning title=Unmanaged objects::1 object(s) in the live zones are in no manifest (the plan above lists them)');
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
