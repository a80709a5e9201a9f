/**
 * `streamPlans`: manifests are loaded and planned file by file, each zone handed over in file order
 * as soon as it is planned, issues at their file's place; the provider is opened once, at the first
 * valid manifest, and not at all without one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streamPlans, type ZoneRun } from '../../../src/cli/commands/plan-run.js';
import type { ManifestIssue } from '../../../src/manifest/index.js';
import { openProvider, type Provider } from '../../../src/providers/index.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zonewall-stream-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function stream(paths: string[]) {
  const events: string[] = [];
  let opened = 0;
  let provider: Provider | undefined;
  try {
    const result = await streamPlans(paths, {
      open: async () => { opened++; provider = await openProvider({ stateDir: join(dir, 'state') }); return provider; },
      options: () => ({}),
      issue: (i: ManifestIssue) => events.push(`issue ${i.file.slice(dir.length + 1)}:${i.line}`),
      zone: (run: ZoneRun) => events.push(`zone ${run.desired.zone} ${run.plan?.summary.add ?? run.error?.message}`),
    });
    return { events, opened, issues: result.issues.length };
  } finally {
    await provider?.close();
  }
}

describe('streamPlans', () => {
  it('hands over zones and issues in file order, a zone configured twice at its second file', async () => {
    writeFileSync(join(dir, 'a.yaml'), 'zone: a.example\nfilters:\n  f: { expression: ip.src eq 192.0.2.1 }\n');
    writeFileSync(join(dir, 'b.yaml'), 'zone: b.example\nfilters:\n  f: { expression: ip.src eq }\n');
    writeFileSync(join(dir, 'c.yaml'), 'zone: a.example\n');
    writeFileSync(join(dir, 'd.yaml'), 'zone: d.example\n');
    const r = await stream([dir]);
    expect(r.events).toEqual(['zone a.example 1', 'issue b.yaml:3', 'issue c.yaml:1', 'zone d.example 0']);
    expect(r.opened).toBe(1);
    expect(r.issues).toBe(2);
  });

  it('opens no provider when no manifest is valid', async () => {
    writeFileSync(join(dir, 'b.yaml'), 'zone: b.example\nfilters: 3\n');
    const r = await stream([join(dir, 'b.yaml'), join(dir, 'missing.yaml')]);
    expect(r.opened).toBe(0);
    expect(r.events).toEqual(['issue missing.yaml:0', 'issue b.yaml:2']);
  });
});
