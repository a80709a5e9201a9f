/**
 * Zones the embedded engine does not have yet, with the built CLI: a plan, and an apply that writes
 * nothing (refused without a terminal, stopped by a safety check, nothing to do), create no zone in
 * the state directory; the zone reads as new and apply creates it at its first write, with the id
 * the plan showed (a saved plan included).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state]);
const zoneNames = () => withEngine(state, async (engine) => (await engine.listZones()).map((z) => z.name).sort());

const good = (zone: string) => `zone: ${zone}\nfilters:\n  api:\n    expression: http.request.uri.path eq "/api"\nfirewall_rules:\n  block-api:\n    action: block\n    filter: api\n`;

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('new-zones'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

describe('a zone the embedded engine does not have yet', () => {
  it('plan of a directory creates no zone and says the zone is planned as new', async () => {
    writeManifest(tmp.dir, 'a.yaml', good('a.example'));
    writeManifest(tmp.dir, 'b.yaml', `zone: b.example\nplan: pro\n`);
    const r = await cli('plan', tmp.dir, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('zone a.example is not in the embedded engine at');
    expect(r.stderr).toContain('planned as a new pro zone, created by apply at its first write');
    expect(r.stderr).not.toContain('created zone');
    expect(await zoneNames()).toEqual([]);
  });

  it('the text and markdown plans of a new zone say "new zone", not an id another run would not use', async () => {
    const file = writeManifest(tmp.dir, 'a.yaml', good('a.example'));
    const [first, second] = [await cli('plan', file), await cli('plan', file)];
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^a\.example \(new zone, enterprise\) — /);
    expect(first.stdout).not.toMatch(/[0-9a-f]{32}/);
    expect(second.stdout).toBe(first.stdout);
    const markdown = await cli('plan', file, '--markdown');
    expect(markdown.stdout).toContain(', new zone (enterprise).');
    expect(markdown.stdout).not.toMatch(/[0-9a-f]{32}/);
  });

  it('apply that ends "nothing applied" creates no zone: no terminal, a danger finding, an error finding, nothing to do', async () => {
    const a = writeManifest(tmp.dir, 'a.yaml', good('a.example'));
    writeManifest(tmp.dir, 'b.yaml', `${good('b.example')}managed_rules:\n  - ruleset: managed\nwaf_migration: validation\n`);
    const noTerminal = await cli('apply', a);
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toContain('nothing was applied');
    const danger = await cli('apply', tmp.dir, '--auto-approve');
    expect(danger.code).toBe(1);
    expect(danger.stderr).toMatch(/flips-waf-migration|--force/);
    expect(await zoneNames()).toEqual([]);

    writeManifest(tmp.dir, 'dup-a.yaml', good('c.example'));
    const same = 'expression: ip.src eq 192.0.2.1';
    writeManifest(tmp.dir, 'dup-b.yaml', `zone: d.example\nfilters:\n  one:\n    ${same}\n  two:\n    ${same}\n`);
    const error = await cli('apply', join(tmp.dir, 'dup-a.yaml'), join(tmp.dir, 'dup-b.yaml'), '--auto-approve', '--force');
    expect(error.code, error.stdout).toBe(1);

    writeManifest(tmp.dir, 'empty.yaml', 'zone: e.example\n');
    const nothing = await cli('apply', join(tmp.dir, 'empty.yaml'), '--auto-approve');
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stdout).toContain('No changes. Nothing to apply.');
    expect(await zoneNames()).toEqual([]);
  });

  it('a saved plan creates the zone on the WAF generation its manifest means, as a plan and apply from the manifest does (issue 32)', async () => {
    const wafState = (name: string) => withEngine(state, async (engine) => {
      const zone = await engine.getZone(name);
      const status = await engine.dispatch({ method: 'GET', path: `/zones/${zone!.id}/waf_migration/status` });
      return (status.body.result as { waf_state: string }).waf_state;
    });
    // No previous_waf, no waf_migration: the new WAF; with previous_waf: the previous one.
    const fresh = writeManifest(tmp.dir, 'n.yaml', good('n.example'));
    const old = writeManifest(tmp.dir, 'p.yaml', `${good('p.example')}previous_waf:\n  packages:\n    owasp: { sensitivity: low, action_mode: simulate }\n`);
    for (const [file, out] of [[fresh, 'n.json'], [old, 'p.json']] as const) {
      const plan = await cli('plan', file, '--out', join(tmp.dir, out));
      expect(plan.code, plan.stderr).toBe(0);
      const apply = await cli('apply', join(tmp.dir, out), '--auto-approve', '--force');
      expect(apply.code, apply.stderr).toBe(0);
    }
    expect(await wafState('n.example')).toBe('new_only');
    expect(await wafState('p.example')).toBe('previous_only');
    // The saved plan says which generation it creates a missing zone on.
    const saved = (out: string) => (JSON.parse(readFileSync(join(tmp.dir, out), 'utf8')) as { zones: { zone: { waf?: string } }[] }).zones[0]!.zone.waf;
    expect([saved('n.json'), saved('p.json')]).toEqual(['new', 'previous']);
    // Planned again from the manifests: nothing to change.
    for (const file of [fresh, old]) expect((await cli('plan', file, '--detailed-exitcode')).code).toBe(0);
  });

  it('apply creates the zone at its first write, with the id the plan showed, and says so', async () => {
    const file = writeManifest(tmp.dir, 'a.yaml', good('a.example'));
    const plan = await cli('plan', file, '--out', join(tmp.dir, 'plan.json'));
    expect(plan.code, plan.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(tmp.dir, 'plan.json'), 'utf8')) as { zones: { zone: { id: string } }[] };
    const id = saved.zones[0]!.zone.id;
    expect(await zoneNames()).toEqual([]);
    const apply = await cli('apply', join(tmp.dir, 'plan.json'), '--auto-approve');
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toMatch(/created zone a\.example \(enterprise\) in the embedded engine at /);
    expect(await withEngine(state, async (engine) => (await engine.getZone('a.example'))?.id)).toBe(id);
    // A zone of that name made after the plan was saved is another zone: the plan is refused.
    const other = writeManifest(tmp.dir, 'b.yaml', good('b.example'));
    expect((await cli('plan', other, '--out', join(tmp.dir, 'b.json'))).code).toBe(0);
    await withEngine(state, (engine) => engine.createZone('b.example', { plan: 'enterprise' }));
    const stale = await cli('apply', join(tmp.dir, 'b.json'), '--auto-approve');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('plan again');
    expect(stale.stderr).not.toContain('created zone');
    const again = await cli('plan', file, '--detailed-exitcode');
    expect(again.code, again.stdout).toBe(0);
    expect(again.stderr).not.toContain('not in the embedded engine');
  });
});
