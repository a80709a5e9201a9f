import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertFresh, assertPlannedHere, readSavedPlan, StalePlanError, writeSavedPlan } from '../../src/apply/index.js';
import { diffZone, planDocument, planFromJson } from '../../src/plan/index.js';
import { dFilter, desired, hex, lFilter, live } from '../plan/fixtures.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zw-saved-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const zone = live({ filters: [lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'a' })] });
const plan = diffZone(desired({ filters: [dFilter('a', 'ip.src eq 192.0.2.1'), dFilter('b', 'ip.src eq 192.0.2.2')] }), zone);

describe('saved plans', () => {
  it('are applied only through the provider they were made against', () => {
    const engineAt = { kind: 'engine', description: 'embedded engine at st', target: '/work/st' } as const;
    expect(() => assertPlannedHere({ provider: engineAt }, { kind: 'engine', target: '/work/st' })).not.toThrow();
    // A plan of an older zonewall records no target: nothing to compare.
    expect(() => assertPlannedHere({ provider: { kind: 'engine', description: 'embedded engine at st' } }, { kind: 'http', target: 'https://api.example/client/v4' })).not.toThrow();
    expect(() => assertPlannedHere({ provider: engineAt }, { kind: 'engine', target: '/work/other' }))
      .toThrow('the saved plan was made against the embedded engine at /work/st, not the embedded engine at /work/other: apply it where it was made (--state-dir /work/st), or plan again against this one');
    const remoteAt = { kind: 'http', description: 'v4 API at https://api.example/client/v4', target: 'https://api.example/client/v4' } as const;
    expect(() => assertPlannedHere({ provider: remoteAt }, { kind: 'engine', target: '/work/st' }))
      .toThrow('made against the v4 API at https://api.example/client/v4, not the embedded engine at /work/st: apply it where it was made (--remote https://api.example/client/v4)');
  });

  it('round-trips through a file', () => {
    const file = join(dir, 'plan.json');
    writeSavedPlan(file, planDocument([plan], []));
    const doc = readSavedPlan(file)!;
    expect(planFromJson(doc.zones[0]!)).toEqual(plan);
  });

  it('tells manifests and other JSON apart from plans', () => {
    writeFileSync(join(dir, 'zone.yaml'), 'zone: example.com\n');
    writeFileSync(join(dir, 'other.json'), '{"zone": "example.com"}');
    expect(readSavedPlan(join(dir, 'zone.yaml'))).toBeUndefined();
    expect(readSavedPlan(join(dir, 'other.json'))).toBeUndefined();
  });

  it('refuses another major format version and invalid documents', () => {
    const doc = planDocument([plan], []);
    writeFileSync(join(dir, 'v1.json'), JSON.stringify({ ...doc, format_version: '1.1' }));
    expect(() => readSavedPlan(join(dir, 'v1.json'))).toThrow(/format 1\.1; this zonewall reads format 2\.x/);
    writeFileSync(join(dir, 'v3.json'), JSON.stringify({ ...doc, format_version: '3.0' }));
    expect(() => readSavedPlan(join(dir, 'v3.json'))).toThrow(/format 3\.0; this zonewall reads format 2\.x/);
    const { format_version: _v, ...unversioned } = doc;
    writeFileSync(join(dir, 'none.json'), JSON.stringify(unversioned));
    expect(() => readSavedPlan(join(dir, 'none.json'))).toThrow(/^\S+none\.json is a zonewall plan without its format_version \(this zonewall reads format 2\.x\): plan again with zonewall plan --out$/);
    writeFileSync(join(dir, 'number.json'), JSON.stringify({ ...doc, format_version: 2 }));
    expect(() => readSavedPlan(join(dir, 'number.json'))).toThrow(/format_version must be a text such as "2\.0", got 2/);
    writeFileSync(join(dir, 'v2.7.json'), JSON.stringify({ ...doc, format_version: '2.7', future_field: true }));
    expect(readSavedPlan(join(dir, 'v2.7.json'))).toBeDefined();
    const broken = { ...doc, zones: [{ ...doc.zones[0]!, fingerprint: 'md5:x' }] };
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken));
    expect(() => readSavedPlan(join(dir, 'broken.json'))).toThrow(/not a valid zonewall plan \(\/zones\/0\/fingerprint/);
  });

  it('is stale once the zone changed, or when it is another zone', () => {
    expect(() => assertFresh(plan, zone)).not.toThrow();
    const edited = live({ filters: [lFilter('f1', 'ip.src eq 192.0.2.1', { ref: 'a', description: 'edited on the dashboard' })] });
    expect(() => assertFresh(plan, edited)).toThrow(StalePlanError);
    expect(() => assertFresh(plan, edited)).toThrow(/changed since the plan was saved/);
    const other = live({ ...zone, zone: { id: hex('other'), name: 'example.com' } });
    expect(() => assertFresh(plan, other)).toThrow(/plan again against this provider/);
    try { assertFresh(plan, edited); } catch (e) { expect((e as StalePlanError).code).toBe('ERR_STALE_PLAN'); }
  });
});

describe('saved plans cut short', () => {
  it('names a truncated plan instead of passing it on as a manifest', () => {
    const text = `${JSON.stringify(planDocument([plan], []), null, 2)}\n`;
    writeFileSync(join(dir, 'cut.json'), text.slice(0, 200));
    expect(() => readSavedPlan(join(dir, 'cut.json'))).toThrow(/cut\.json is a zonewall plan but not valid JSON .*plan again with zonewall plan --out/);
    writeFileSync(join(dir, 'manifest.json'), '{"zone": "example.com",');
    expect(readSavedPlan(join(dir, 'manifest.json'))).toBeUndefined();
  });

  it('refuses a plan with a key written twice at the repeat: JSON keeps the last, silently, and plan --out writes each once', () => {
    const text = JSON.stringify(planDocument([plan], []), null, 2);
    // The first zone's fingerprint written again: the older one would be checked against the zone.
    const twice = text.replace(/\n(\s*)"fingerprint": ("[^"]*"),/, '\n$1"fingerprint": $2,\n$1"fingerprint": $2,');
    expect(twice).not.toBe(text);
    const line = twice.slice(0, twice.indexOf('"fingerprint"')).split('\n').length + 1;
    writeFileSync(join(dir, 'twice.json'), twice);
    expect(() => readSavedPlan(join(dir, 'twice.json'))).toThrow(new RegExp(`^\\S+twice\\.json:${line}:\\d+: zones\\[0\\] has "fingerprint" twice \\(JSON keeps only the last, silently\\): zonewall writes each key once, so the plan was edited or damaged: plan again with zonewall plan --out$`));
  });

  it('writes atomically: a failed write leaves neither the file nor a temp file', () => {
    writeFileSync(join(dir, 'blocker'), 'a file where a directory would be');
    const file = join(dir, 'blocker', 'plan.json');
    expect(() => writeSavedPlan(file, planDocument([plan], []))).toThrow(/cannot write the plan to .*blocker\/plan\.json/);
    expect(readdirSync(dir)).toEqual(['blocker']);
    writeSavedPlan(join(dir, 'new', 'plan.json'), planDocument([plan], []));
    expect(readdirSync(join(dir, 'new'))).toEqual(['plan.json']);
  });
});
