/**
 * `validate --json` carries the warnings the text output prints (issue 33): a retired field
 * (`cf.threat_score`) is a warning with its position, and the manifest stays valid. The real CLI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

const tmp = tempDir('validate-json');
afterAll(() => tmp.cleanup());

describe('validate --json', () => {
  it('lists warnings beside errors; a manifest with only warnings is valid (exit 0)', async () => {
    requireBuild();
    const file = writeManifest(tmp.dir, 'zone.yaml', 'zone: warn.example\ncustom_rules:\n  threats:\n    action: block\n    expression: cf.threat_score gt 40\n');
    const run = await zonewall(['validate', '--json', file]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { valid: boolean; errors: unknown[]; warnings: { file: string; line: number; column: number; path: string; message: string }[] };
    expect(out.valid).toBe(true);
    expect(out.errors).toEqual([]);
    expect(out.warnings).toEqual([{ file, line: 5, column: 17, path: 'custom_rules.threats.expression', message: expect.stringContaining('cf.threat_score is retired') }]);
    const clean = await zonewall(['validate', '--json', writeManifest(tmp.dir, 'clean.yaml', 'zone: clean.example\n')]);
    expect((JSON.parse(clean.stdout) as { warnings: unknown[] }).warnings).toEqual([]);
  });
});
