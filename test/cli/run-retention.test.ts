/**
 * What a run keeps of a zone once it is planned and printed (`outline`: the zone's name, its counts
 * and findings) keeps nothing of the zone's manifest text. In V8 a string cut from a longer one
 * (13 characters or more) is a view that keeps the whole text alive: a 50-zone plan kept all 50
 * manifests (about 90 KB each for 2,000 objects) to its end through the zones' names.
 * Measured as a user's run would feel it: heap still used after a full collection.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { outline, type RunOutline, type ZoneRun } from '../../src/cli/commands/plan-run.js';
import { loadManifestFile } from '../../src/manifest/index.js';
import type { Plan } from '../../src/plan/index.js';
import { tempDir } from '../helpers/e2e-cli.js';

const tmp = tempDir('retention');
afterAll(() => tmp.cleanup());

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const Zones = 20;

/** A manifest of about 300 KB: 1,000 filters with long descriptions. */
function manifest(zone: string): string {
  const lines = [`zone: ${zone}`, 'filters:'];
  for (let i = 0; i < 1000; i++) lines.push(`  f${i}:`, `    expression: 'ip.src eq 10.0.${(i >> 8) & 255}.${i & 255}'`, `    description: '${'d'.repeat(200)} ${i}'`);
  return `${lines.join('\n')}\n`;
}

function heapAfterCollection(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("a run's outline of a planned zone", () => {
  it('keeps neither the manifest text through the zone name nor through a finding', async () => {
    const files = Array.from({ length: Zones }, (_, z) => {
      const file = join(tmp.dir, `zone-${z}.yaml`);
      writeFileSync(file, manifest(`retained-${z}.example.com`));
      return file;
    });
    const kept: RunOutline[] = [];
    const plan = async (file: string) => {
      const { zone: desired } = await loadManifestFile(file);
      expect(desired).toBeDefined();
      // A finding about a filter whose message quotes its description (a string cut from the text).
      const description = desired!.filters[0]!.description ?? '';
      const findings = [{ level: 'warning', code: 'unmanaged', message: `about ${description}` }];
      kept.push(outline({ desired: desired!, plan: { summary: {}, calls: {}, findings } as unknown as Plan } as ZoneRun));
    };
    // Per zone, past the first ten: what one-off memos and the zone last read hold is the same at both counts.
    for (const file of files.slice(0, Zones / 2)) await plan(file);
    const half = heapAfterCollection();
    for (const file of files.slice(Zones / 2)) await plan(file);
    const perZone = (heapAfterCollection() - half) / (Zones / 2);
    expect(kept.map((o) => o.desired.zone)).toEqual(files.map((_, z) => `retained-${z}.example.com`));
    expect(kept[0]!.plan!.findings[0]!.message.startsWith('about ddd')).toBe(true);
    // A manifest text is ~300 KB; a zone's outline (its name and a finding of ~250 characters), well under 10 KB.
    expect(perZone).toBeLessThan(30_000);
  });
});
