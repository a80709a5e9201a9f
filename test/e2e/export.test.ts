/**
 * `zonewall export` end to end: the CLI in a child process against zones built in every way a zone
 * gets its objects (the recommended flow with refs, raw API calls without refs, the simplified flow,
 * an entry point and previous WAF settings), on the embedded engine and over HTTP against
 * `zonewall serve`. Export, then plan the exported file: the plan must change nothing.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { Engine, startServer } from '../../src/engine/index.js';
import { loadManifest } from '../../src/manifest/index.js';
import { diffZone } from '../../src/plan/index.js';
import { openProvider } from '../../src/providers/index.js';
import type { Provider } from '../../src/providers/index.js';
import { outputOf } from '../helpers/e2e-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const mainUrl = pathToFileURL(path.join(root, 'src/cli/main.ts')).href;
const Token = 'e2e-export-token-0123456789abcdefghijklmnopqrs';
const Owasp = '4814384a9e5d4991b9815dcfc25d2f1f';
const AnomalyRule = '6179ae15870a4bb7b2d480d4843b323c';

interface Run { code: number | null; stdout: string; stderr: string }

/** Runs the CLI from source (tsx) in a child process. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = { ...process.env };
  for (const k of ['ZONEWALL_API_URL', 'ZONEWALL_API_TOKEN', 'ZONEWALL_AUTH_EMAIL', 'ZONEWALL_AUTH_KEY', 'ZONEWALL_RATE_LIMIT']) delete base[k];
  const code = `import(${JSON.stringify(mainUrl)}).then(async (m) => { process.exitCode = await m.main(['node', 'zonewall', ...process.argv.slice(1)]); })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code, '--', ...args], { cwd: root, env: { ...base, ...env, NO_COLOR: '1' } });
  return outputOf(child);
}

/** Builds a zone through raw v4 calls: refs only where the recommended flow gave them. */
async function buildZone(engine: Engine, name: string): Promise<string> {
  const zone = await engine.createZone(name, { plan: 'enterprise' });
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await engine.dispatch({ method, path: `/zones/${zone.id}${p}`, body });
    expect(res.body.errors).toEqual([]);
    return res.body.result as { id: string }[];
  };
  // Raw API calls without refs: a filter shared by two rules, one used once, one unused and paused.
  const [office, admin] = await call('POST', '/filters', [
    { expression: 'ip.src in {192.0.2.0/24}', description: 'Office network' },
    { expression: 'http.request.uri.path matches "^/admin"' },
    { expression: 'http.host eq "old.example.com"', paused: true },
  ]);
  await call('POST', '/firewall/rules', [
    { action: 'allow', priority: 1, description: 'Office network', filter: { id: office.id } },
    { action: 'log', priority: 2, filter: { id: office.id } },
    { action: 'block', priority: 5, description: 'Admin: block!', filter: { id: admin.id } },
  ]);
  // The simplified flow: the filter inline in the rule POST (locked: no PUT, no DELETE).
  await call('POST', '/firewall/rules', [{ action: 'managed_challenge', priority: 10, filter: { expression: 'http.user_agent contains "sqlmap"' } }]);
  // The recommended flow with refs.
  const [bad] = await call('POST', '/filters', [{ expression: 'ip.src eq 198.51.100.1', ref: 'bad-ip' }]);
  await call('POST', '/firewall/rules', [{ action: 'block', priority: 11, ref: 'block-bad-ip', filter: { id: bad.id } }]);
  // The managed entry point (no ref: the service gives it the rule id) and previous WAF settings.
  await call('PUT', '/rulesets/phases/http_request_firewall_managed/entrypoint', { rules: [{
    action: 'execute', expression: 'true', enabled: true,
    action_parameters: { id: Owasp, overrides: {
      categories: [{ category: 'paranoia-level-3', enabled: false }, { category: 'paranoia-level-4', enabled: false }],
      rules: [{ id: AnomalyRule, score_threshold: 25, action: 'block' }],
    } },
  }] });
  const packages = await call('GET', '/firewall/waf/packages');
  const anomaly = (packages as unknown as { id: string; detection_mode: string }[]).find((p) => p.detection_mode === 'anomaly')!;
  await call('PATCH', `/firewall/waf/packages/${anomaly.id}`, { sensitivity: 'medium' });
  return zone.id;
}

/** Loads the exported manifest and plans it against the live zone; returns the plan. */
async function planFile(file: string, provider: Provider) {
  const loaded = await loadManifest(file);
  expect(loaded.issues).toEqual([]);
  const { zone } = await provider.resolveZone(loaded.zone!.zone);
  return diffZone(loaded.zone!, await provider.readZone(zone.id));
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-e2e-export-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('zonewall export', () => {
  it('exports an embedded zone, adopts its objects, and the plan of the file is empty', async () => {
    const state = path.join(dir, 'state');
    const engine = await Engine.open({ dir: state });
    await buildZone(engine, 'shop.example');
    await engine.close();

    const out = path.join(dir, 'shop.yaml');
    const run = await cli(['export', '--zone', 'shop.example', '--state-dir', state, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Exported zone shop.example to ${out}: 5 filter(s), 5 firewall rule(s), 0 custom rule(s), 1 managed ruleset(s).`);
    expect(run.stdout).toContain('Adopted');
    expect(run.stdout).toMatch(/firewall rule [0-9a-f]{32} as admin-block \(key from its description\)/);
    expect(run.stdout).toContain('Simplified-flow filter(s) written inline');

    const text = fs.readFileSync(out, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*schemas\/zone-manifest\.schema\.json$/);
    const doc = parse(text) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['zone', 'plan', 'filters', 'firewall_rules', 'managed_rules', 'previous_waf', 'waf_migration']);
    expect(doc.managed_rules).toEqual([expect.objectContaining({ ruleset: 'owasp', paranoia_level: 2, score_threshold: 'high', action: 'block' })]);

    const provider = await openProvider({ stateDir: state });
    try {
      const plan = await planFile(out, provider);
      expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
      expect(plan.unmanaged).toEqual([]);
    } finally {
      await provider.close();
    }
  });

  it('exports a remote zone over HTTP to stdout, with the report on stderr, and the plan is empty', async () => {
    const engine = await Engine.open({ dir: path.join(dir, 'state') });
    const server = await startServer(engine, { port: 0, credentials: [{ type: 'token', token: Token, zones: '*' }] });
    try {
      await buildZone(engine, 'remote.example');
      const run = await cli(['export', '--zone', 'remote.example', '--remote', server.url], { ZONEWALL_API_TOKEN: Token });
      expect(run.code).toBe(0);
      expect(run.stdout.startsWith('# yaml-language-server: $schema=')).toBe(true);
      expect(run.stderr).toContain('Exported zone remote.example to stdout');
      expect(run.stderr).not.toContain(Token);
      const file = path.join(dir, 'remote.yaml');
      fs.writeFileSync(file, run.stdout);
      const provider = await openProvider({ remote: server.url, env: { ZONEWALL_API_TOKEN: Token } });
      try {
        const plan = await planFile(file, provider);
        expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
      } finally {
        await provider.close();
      }
    } finally {
      await server.close();
      await engine.close();
    }
  });

  it('with --no-adopt leaves refs alone; refuses to overwrite; names a missing zone', async () => {
    const state = path.join(dir, 'state');
    const engine = await Engine.open({ dir: state });
    const zoneId = await buildZone(engine, 'keep.example');
    await engine.close();
    const out = path.join(dir, 'keep.yaml');

    const run = await cli(['export', '--zone', 'keep.example', '--state-dir', state, '--out', out, '--no-adopt']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Not adopted (--no-adopt)');
    const provider = await openProvider({ stateDir: state });
    try {
      const live = await provider.readZone(zoneId);
      expect(live.firewallRules.filter((r) => r.ref).map((r) => r.ref)).toEqual(['block-bad-ip']);
    } finally {
      await provider.close();
    }

    const again = await cli(['export', '--zone', 'keep.example', '--state-dir', state, '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists: pass --force to overwrite it');

    const missing = await cli(['export', '--zone', 'nope.example', '--state-dir', state]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('zone "nope.example" not found');
  });

  it('keeps the evaluation order of rules whose keys look like numbers ("20" before "3"), in the file and its plan', async () => {
    // JavaScript lists keys like "20" and "3" first, in numeric order: the export wrote 3, 20, x.
    const manifest = path.join(dir, 'ordered.yaml');
    fs.writeFileSync(manifest, [
      'zone: ordered.example', 'plan: enterprise', 'custom_rules:',
      '  "20": {action: block, expression: http.host eq "a.ordered.example"}',
      '  "3": {action: log, expression: http.host eq "b.ordered.example"}',
      '  x: {action: log, expression: http.host eq "c.ordered.example"}',
      'rate_limiting_rules:',
      '  "9": {action: block, expression: http.host eq "a.ordered.example", ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 5, mitigation_timeout: 600}}',
      '  "1": {action: block, expression: http.host eq "b.ordered.example", ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 5, mitigation_timeout: 600}}',
      '',
    ].join('\n'));
    const state = path.join(dir, 'state');
    const applied = await cli(['apply', manifest, '--state-dir', state, '--auto-approve']);
    expect(applied.stderr).not.toMatch(/Error|error:/);
    expect(applied.code).toBe(0);
    const out = path.join(dir, 'exported.yaml');
    const run = await cli(['export', '--zone', 'ordered.example', '--state-dir', state, '--out', out]);
    expect(run.code).toBe(0);
    // The summary counts the rate limiting rules it wrote, as it counts the other sections.
    expect(run.stdout).toContain(`Exported zone ordered.example to ${out}: 0 filter(s), 0 firewall rule(s), 3 custom rule(s), 0 managed ruleset(s), 2 rate limiting rule(s).`);
    const text = fs.readFileSync(out, 'utf8');
    const order = (section: string) => [...text.slice(text.indexOf(`${section}:`)).matchAll(/^ {2}("?)([\w-]+)\1:/gm)].map((m) => m[2]);
    expect(order('custom_rules').slice(0, 3)).toEqual(['20', '3', 'x']);
    expect(order('rate_limiting_rules').slice(0, 2)).toEqual(['9', '1']);
    const provider = await openProvider({ stateDir: state });
    try {
      const plan = await planFile(out, provider);
      expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    } finally {
      await provider.close();
    }
  });
});
