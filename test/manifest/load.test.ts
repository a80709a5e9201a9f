import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManifestError, formatIssue, loadManifest, loadManifestFile, loadManifests, requireManifests } from '../../src/manifest/index.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zonewall-manifest-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

const write = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('loading manifests', () => {
  it('accepts a directory wherever a file is: *.yaml and *.yml, sorted, not recursive, not case files', async () => {
    write('b.yml', 'zone: b.example\n');
    write('a.yaml', 'zone: a.example\n');
    write('a.tests.yaml', '- name: a case\n  request: {}\n  expect: { allowed: true }\n');
    write('notes.txt', 'not a manifest');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'c.yaml'), 'zone: c.example\n');
    const r = await loadManifests([dir]);
    expect(r.files).toEqual([join(dir, 'a.yaml'), join(dir, 'b.yml')]);
    expect(r.zones.map((z) => z.zone)).toEqual(['a.example', 'b.example']);
    expect(r.errors).toEqual([]);
    const viaOnePath = await loadManifest(dir);
    expect(viaOnePath.zones).toHaveLength(2);
    expect(viaOnePath.zone).toBeUndefined(); // two zones: no single-zone view
    const one = await loadManifest(join(dir, 'a.yaml'));
    expect([one.zone?.zone, one.issues]).toEqual(['a.example', []]);
  });

  it('returns every error of every file at once, sorted', async () => {
    const bad1 = write('1.yaml', 'zone: x\nplan: gold\n');
    const bad2 = write('2.yaml', 'zone: y\nfirewall_rules:\n  r: {action: blok, filter: {expression: ssl}}\n');
    const good = write('3.yaml', 'zone: z\n');
    const r = await loadManifests([bad2, bad1, good]);
    expect(r.zones.map((z) => z.zone)).toEqual(['z']);
    expect(r.errors.map(formatIssue)).toEqual([
      `${bad1}:2:7: plan: must be one of free, pro, business, enterprise (got "gold")`,
      `${bad2}:3:15: firewall_rules.r.action: must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass (got "blok"; did you mean "block"?)`,
    ]);
  });

  it('reports missing paths and empty directories without a position', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const r = await loadManifests([join(dir, 'missing.yaml'), empty]);
    expect(r.errors.map(formatIssue)).toEqual([
      `${empty}: no manifests (*.yaml, *.yml) in this directory`,
      `${join(dir, 'missing.yaml')}: no such file or directory`,
    ]);
  });

  it('refuses two manifests for one zone', async () => {
    write('a.yaml', 'zone: example.com\n');
    write('b.yaml', '# same zone\nzone: Example.com\n');
    const r = await loadManifests([dir]);
    expect(r.zones).toHaveLength(1);
    expect(r.errors.map(formatIssue)).toEqual([
      `${join(dir, 'b.yaml')}:2:7: zone: zone "Example.com" is already configured by ${join(dir, 'a.yaml')}; one manifest per zone`,
    ]);
  });

  it('requireManifests throws a ManifestError carrying every reason', async () => {
    const f = write('a.yaml', 'zone: x\nplan: gold\nwaf_migration: done\n');
    const err = await requireManifests([f]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    const me = err as ManifestError;
    expect(me.code).toBe('ERR_MANIFEST');
    expect(me.kind).toBe('user');
    expect(me.reasons.map((r) => `${r.line}:${r.column} ${r.path}`)).toEqual(['2:7 plan', '3:16 waf_migration']);
    expect(me.message).toContain(`${f}:2:7: plan: must be one of`);
    await expect(requireManifests([write('ok.yaml', 'zone: ok\n')])).resolves.toHaveLength(1);
  });

  it('refuses more than one YAML document and an empty file', async () => {
    const multi = await loadManifestFile(write('m.yaml', 'zone: a\n---\nzone: b\n'));
    expect(multi.issues.map(formatIssue)).toEqual([
      `${join(dir, 'm.yaml')}:2:1: a manifest holds one zone, but this file has a second YAML document: put each zone in its own file`,
    ]);
    const empty = await loadManifestFile(write('e.yaml', '# nothing yet\n'));
    expect(empty.issues.map((i) => i.message)).toEqual(['the manifest is empty: it needs at least `zone: <zone name or id>`']);
  });

  it('reports duplicate keys at the second key, naming the first line', async () => {
    const r = await loadManifestFile(write('d.yaml', 'zone: a\nfilters:\n  x: {expression: ssl}\n  x: {expression: not ssl}\n'));
    expect(r.issues.map(formatIssue)).toEqual([
      `${join(dir, 'd.yaml')}:4:3: filters.x: duplicate key "x": already defined at line 3; remove or rename one`,
    ]);
  });

  it('reports YAML syntax errors with their position', async () => {
    const r = await loadManifestFile(write('s.yaml', 'zone: a\nfilters:\n  x: {expression: "ssl}\n'));
    expect(r.issues.length).toBeGreaterThan(0);
    expect(r.issues.every((i) => i.line >= 1 && i.column >= 1)).toBe(true);
  });
});
