/**
 * `zonewall plan` / `apply` end to end on the embedded engine (the built CLI in a child process,
 * `--state-dir` in a temp directory): every example applies and then plans clean; edits, reorders,
 * renames, notation changes and deletions give in-place plans that keep ids; unmanaged objects are
 * listed, duplicates refused before apply, and `--prune` adopts and deletes. Changes "made outside
 * zonewall" go through the engine directly.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveObjects, repoRoot, requireBuild, ruleIds, tempDir, v4, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';
import { active, applyJson, described, planJson, v1, ZONE } from '../helpers/e2e-manifests.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state]);

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('plan'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

describe('examples', () => {
  it('apply then plan shows no changes, for every example (one directory run)', async () => {
    const examples = join(repoRoot, 'examples');
    const files = readdirSync(examples).filter((f) => /\.ya?ml$/.test(f));
    const apply = await cli('apply', examples, '--auto-approve', '--force');
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr.match(/created zone \S+ \(\w+\) in the embedded engine at /g)?.length).toBe(files.length);
    expect(apply.stdout.match(/Apply complete for /g)?.length).toBe(files.length);
    const plan = await cli('plan', examples, '--json', '--detailed-exitcode');
    expect(plan.code, plan.stdout).toBe(0);
    const doc = planJson(plan);
    expect(doc.zones.map((z) => z.manifest.file.split('/').pop()).sort()).toEqual([...files].sort());
    for (const zone of doc.zones) expect(zone.summary, zone.zone.name).toMatchObject({ add: 0, change: 0, replace: 0, destroy: 0 });
  });
});

describe('plans of edits', () => {
  it('reorder, rename, notation, edit and delete give in-place plans that keep ids', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    expect((await cli('apply', file, '--auto-approve')).code).toBe(0);
    const first = ruleIds(await liveObjects(state, ZONE));

    // Reorder: priorities only, nothing recreated.
    writeFileSync(file, v1.replace(/( {2}block-api:\n(?: {4}.*\n)+)( {2}challenge-bots:\n(?: {4}.*\n)+)/, '$2$1'));
    const reorder = applyJson(await cli('apply', file, '--auto-approve', '--json'));
    expect(described(reorder.plan).sort()).toEqual(['update firewall_rule block-api reordered', 'update firewall_rule challenge-bots reordered']);
    expect(reorder.results[0]!.ok).toBe(true);

    // Rename with renamed_from, a notation-only change, and a real expression edit.
    writeFileSync(file, readFileSync(file, 'utf8')
      .replace('  block-ip:\n', '  block-bad-ip:\n    renamed_from: block-ip\n')
      .replace('ip.src eq 198.51.100.7', '(ip.src == 198.51.100.7)')
      .replace('http.user_agent contains "sqlmap"', 'http.user_agent contains "nikto"'));
    const text = await cli('plan', file);
    expect(text.stdout).toContain('expression: http.user_agent contains "[-sqlmap-]{+nikto+}"');
    expect(text.stdout).toContain('ref: "block-ip" -> "block-bad-ip"');
    expect(text.stdout).toContain('Plan: 0 to add, 3 to change, 0 to replace, 0 to destroy.');
    const edit = applyJson(await cli('apply', file, '--auto-approve', '--json'));
    expect(described(edit.plan)).toEqual([
      'update filter block-bad-ip renamed', 'update filter challenge-bots changed', 'update firewall_rule block-bad-ip renamed',
    ]);
    expect(active(edit.plan).find((c) => c.kind === 'filter' && c.ref === 'block-bad-ip')!.changed).toEqual(['ref']);
    const renamed = ruleIds(await liveObjects(state, ZONE));
    expect(renamed.get('block-bad-ip')).toBe(first.get('block-ip'));
    expect(renamed.get('block-api')).toBe(first.get('block-api'));
    expect(renamed.get('challenge-bots')).toBe(first.get('challenge-bots'));

    // Delete: the rule, then its filter.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/ {2}block-bad-ip:\n(?: {4}.*\n)+/, ''));
    const del = applyJson(await cli('apply', file, '--auto-approve', '--json'));
    expect(described(del.plan)).toEqual(['delete firewall_rule block-bad-ip not-in-manifest', 'delete filter block-bad-ip not-in-manifest']);
    expect((await cli('plan', file, '--detailed-exitcode')).code).toBe(0);
  });

  it('lists unmanaged objects, refuses duplicates before apply, and --prune adopts and deletes', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    expect((await cli('apply', file, '--auto-approve')).code).toBe(0);
    await withEngine(state, async (engine) => {
      const zone = (await engine.getZone(ZONE))!;
      const [, b] = await v4<{ id: string }[]>(engine, 'POST', `/zones/${zone.id}/filters`, [
        { expression: 'ip.src eq 203.0.113.9' }, { expression: 'http.host eq "old.example.com"' },
      ]);
      await v4(engine, 'POST', `/zones/${zone.id}/firewall/rules`, [{ action: 'block', priority: 50, filter: { id: b!.id } }]);
    });
    const listed = await cli('plan', file, '--detailed-exitcode');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Unmanaged objects (3, not in any manifest: left alone; --prune deletes them):');
    expect(listed.stdout).toContain('? filter');

    writeFileSync(file, `${v1}  office:\n    action: allow\n    filter:\n      expression: ip.src eq 203.0.113.9\n`);
    const dup = await cli('plan', file);
    expect(dup.code).toBe(1);
    expect(dup.stdout).toMatch(/ERROR\s+duplicate-expression: filter "office": .*zonewall export/);
    const refused = await cli('apply', file, '--auto-approve', '--force');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot be applied (--force does not override these)');

    const pruned = applyJson(await cli('apply', file, '--auto-approve', '--prune', '--json'));
    expect(described(pruned.plan)).toEqual([
      'update filter office adopted', 'create firewall_rule office new', 'delete firewall_rule (unmanaged) prune', 'delete filter (unmanaged) prune',
    ]);
    expect(pruned.results[0]!.ok).toBe(true);
    const clean = planJson(await cli('plan', file, '--json'));
    expect(active(clean)).toEqual([]);
    expect(clean.zones[0]!.unmanaged).toEqual([]);
  });
});
