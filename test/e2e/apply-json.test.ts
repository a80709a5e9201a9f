/**
 * `apply --json` prints one JSON document on stdout whatever the outcome (issue 31): an apply that
 * went through, one with nothing to do, and every refusal (danger findings, error findings,
 * manifest errors, no terminal without `--auto-approve`, a zone that could not be planned). Each
 * real output of the built CLI is valid against `schemas/apply.schema.json` (which refers to the
 * plan schema for its `plan`), and the exit codes are the documented ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, v4, withEngine, writeManifest, zonewall, type CliRun } from '../helpers/e2e-cli.js';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addSchema(read('plan.schema.json'));
const validate = ajv.compile(read('apply.schema.json'));

interface ApplyDoc {
  kind: string;
  format_version: string;
  applied: boolean;
  refused?: { code: string; message: string };
  plan: { zones: { findings: { level: string; code: string }[] }[]; errors: { code: string; message: string }[] };
  results: { ok: boolean }[];
}

/** The one document of a run's stdout, checked against the schema. */
function documentOf(run: CliRun): ApplyDoc {
  expect(run.stdout.trim(), run.stderr).not.toBe('');
  const doc = JSON.parse(run.stdout) as ApplyDoc;
  expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
  expect(doc.kind).toBe('zonewall.apply');
  expect(doc.format_version).toMatch(/^1\.\d+$/);
  return doc;
}

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--json', '--state-dir', state]);
const good = (zone: string) => `zone: ${zone}\nfilters:\n  api:\n    expression: http.request.uri.path eq "/api"\nfirewall_rules:\n  block-api:\n    action: block\n    filter: api\n`;

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('apply-json'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

describe('apply --json', () => {
  it('prints an applied document for an apply and for nothing to do', async () => {
    const a = writeManifest(tmp.dir, 'a.yaml', good('a.example'));
    const applied = await cli('apply', a, '--auto-approve');
    expect(applied.code, applied.stderr).toBe(0);
    const doc = documentOf(applied);
    expect(doc.applied).toBe(true);
    expect(doc.refused).toBeUndefined();
    expect(doc.results.map((r) => r.ok)).toEqual([true]);
    const again = await cli('apply', a, '--auto-approve');
    expect(again.code, again.stderr).toBe(0);
    expect(documentOf(again)).toMatchObject({ applied: true, results: [] });
  });

  it('prints a refusal document for danger findings, with the findings', async () => {
    const b = writeManifest(tmp.dir, 'b.yaml', `${good('b.example')}managed_rules:\n  - ruleset: managed\nwaf_migration: validation\n`);
    const run = await cli('apply', b, '--auto-approve');
    expect(run.code).toBe(1);
    const doc = documentOf(run);
    expect(doc.applied).toBe(false);
    expect(doc.refused?.code).toBe('ERR_UNSAFE_PLAN');
    expect(doc.plan.zones[0]!.findings.some((f) => f.level === 'danger')).toBe(true);
    expect(doc.results).toEqual([]);
  });

  it('prints a refusal document for error findings, even with --force', async () => {
    // A filter not managed by zonewall with the expression the manifest declares: duplicate-expression.
    await withEngine(state, async (engine) => {
      const zone = await engine.createZone('d.example', { plan: 'enterprise' });
      await v4(engine, 'POST', `/zones/${zone.id}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }]);
    });
    const d = writeManifest(tmp.dir, 'd.yaml', 'zone: d.example\nfilters:\n  one:\n    expression: ip.src eq 192.0.2.1\n');
    const run = await cli('apply', d, '--auto-approve', '--force');
    expect(run.code).toBe(1);
    const doc = documentOf(run);
    expect(doc.applied).toBe(false);
    expect(doc.refused?.code).toBe('ERR_UNSAFE_PLAN');
    expect(doc.plan.zones[0]!.findings.some((f) => f.level === 'error')).toBe(true);
  });

  it('prints a refusal document for manifest errors, with the errors', async () => {
    const bad = writeManifest(tmp.dir, 'bad.yaml', 'zone: x.example\nfirewall_rules:\n  r:\n    action: nope\n');
    const run = await cli('apply', bad, '--auto-approve');
    expect(run.code).toBe(1);
    const doc = documentOf(run);
    expect(doc.applied).toBe(false);
    expect(doc.refused?.code).toBe('ERR_MANIFEST');
    expect(doc.plan.errors.length).toBeGreaterThan(0);
    expect(doc.plan.errors[0]!.code).toBe('ERR_MANIFEST');
  });

  it('prints a refusal document without a terminal and --auto-approve', async () => {
    const a = writeManifest(tmp.dir, 'a.yaml', good('a.example'));
    const run = await cli('apply', a);
    expect(run.code).toBe(1);
    const doc = documentOf(run);
    expect(doc).toMatchObject({ applied: false, results: [], refused: { code: 'ERR_USAGE' } });
    expect(doc.refused!.message).toContain('--auto-approve');
  });

  it('prints a refusal document for a saved plan whose zone changed', async () => {
    const a = writeManifest(tmp.dir, 'a.yaml', good('a.example'));
    const saved = join(tmp.dir, 'plan.json');
    expect((await zonewall(['plan', a, '--out', saved, '--state-dir', state])).code).toBe(0);
    expect((await cli('apply', writeManifest(tmp.dir, 'other.yaml', good('a.example').replace('"/api"', '"/other"')), '--auto-approve')).code).toBe(0);
    const run = await cli('apply', saved, '--auto-approve');
    expect(run.code).toBe(1);
    const doc = documentOf(run);
    expect(doc.applied).toBe(false);
    expect(doc.refused?.message).toMatch(/changed|plan again/);
  });
});
