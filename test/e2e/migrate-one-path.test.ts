/**
 * One migration path (issue 13): the GitOps sequence (`zonewall migrate zone.yaml --write`, then
 * `zonewall apply zone.yaml --force`) and `zonewall migrate zone.yaml --mode pending --force` leave
 * the same entry point on Professional, Business and Enterprise zones, skip rule included: a firewall
 * rule that bypassed the previous WAF for an office range keeps bypassing the new one. The built CLI
 * as a child process on the embedded engine; each tier gets two identical zones, one per path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withEngine, workspace } from '../migrate/cli.js';

const OWASP = 'c504870194831cd12c3fc0284f294abb';
const CliTimeout = 240_000;
const ws = workspace('one-path', (r, what) => expect(r.code, what).toBe(0));
const { dir, stateDir, run, ok } = ws;
afterAll(() => ws.remove());

/** A manifest with an office range that bypasses the WAF, and the previous WAF's OWASP settings. */
function manifest(zone: string): string {
  return `zone: ${zone}
firewall_rules:
  office-bypass:
    action: bypass
    products: [waf]
    filter:
      expression: ip.src in {203.0.113.0/24}
previous_waf:
  packages:
    owasp: { sensitivity: medium, action_mode: block }
`;
}

/** Creates a zone of the tier, sets its OWASP package, and applies the manifest (the bypass rule). */
async function prepare(name: string, plan: string): Promise<string> {
  await ok('engine', 'zone', 'create', name, '--plan', plan);
  await withEngine(stateDir, async (call, engine) => {
    const z = await engine.getZone(name);
    await call('PATCH', `/zones/${z!.id}/firewall/waf/packages/${OWASP}`, { sensitivity: 'medium', action_mode: 'block' });
  });
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, manifest(name));
  await ok('apply', file, '--force', '--auto-approve');
  return file;
}

/** The zone's entry point rules with the server's and the manifest's identities left out. */
async function entrypointOf(name: string): Promise<unknown[]> {
  return withEngine(stateDir, async (call, engine) => {
    const z = await engine.getZone(name);
    const e = await call('GET', `/zones/${z!.id}/rulesets/phases/http_request_firewall_managed/entrypoint`) as { rules: Record<string, unknown>[] };
    // A skip rule's description names its firewall rule's id, which differs from zone to zone.
    return e.rules.map(({ id: _i, ref: _r, version: _v, last_updated: _l, ...rest }) =>
      ({ ...rest, description: String(rest.description ?? '').replace(/[0-9a-f]{32}/, 'ID') }));
  });
}

async function state(name: string): Promise<string> {
  return JSON.parse(await ok('migrate', 'status', '--zone', name, '--json')).state;
}

describe.each([
  ['pro', 'pending'],
  ['business', 'pending'],
  ['enterprise', 'validation'],
])('a %s zone', (tier, firstStep) => {
  it('gets the same entry point, skip rule first, from migrate --write + apply as from migrate --mode pending', { timeout: CliTimeout }, async () => {
    const gitops = await prepare(`gitops-${tier}.test`, tier);
    const direct = await prepare(`direct-${tier}.test`, tier);

    await ok('migrate', gitops, '--write');
    expect(parse(fs.readFileSync(gitops, 'utf8')).waf_migration).toBe(firstStep);
    const plan = await ok('plan', gitops);
    await ok('apply', gitops, '--force', '--auto-approve');
    if (firstStep === 'validation') {
      expect(await state(`gitops-${tier}.test`)).toBe('both');
      fs.writeFileSync(gitops, fs.readFileSync(gitops, 'utf8').replace('waf_migration: validation', 'waf_migration: pending'));
      await ok('apply', gitops, '--force', '--auto-approve');
    }
    expect(await state(`gitops-${tier}.test`)).toBe('new_only');

    await ok('migrate', direct, '--mode', 'pending', '--force', '--write');
    expect(await state(`direct-${tier}.test`)).toBe('new_only');

    const viaApply = await entrypointOf(`gitops-${tier}.test`);
    const viaMigrate = await entrypointOf(`direct-${tier}.test`);
    expect(viaApply).toEqual(viaMigrate);
    expect(viaApply[0]).toMatchObject({ action: 'skip', expression: 'ip.src in {203.0.113.0/24}', action_parameters: { ruleset: 'current' } });
    expect(viaApply.filter((r) => (r as { action: string }).action === 'execute')).toHaveLength(2);
    // The plan said what the step would carry.
    expect(plan).toContain('carries 1 skip rule(s) and 2 managed ruleset deployment(s), from the manifest\'s managed_rules');

    // Both manifests now say what the zones run.
    for (const file of [gitops, direct]) {
      const r = await run('plan', file, '--detailed-exitcode');
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    }
  });
});
