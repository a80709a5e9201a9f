import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyZone } from '../src/apply/index.js';
import { planZones } from '../src/cli/commands/plan-run.js';
import { loadManifests } from '../src/manifest/index.js';
import { openProvider } from '../src/providers/index.js';
import { realisticZone } from '../support/realistic-zone.js';
const dir = '/tmp/zwp/many', state = '/tmp/zwp/many-state';
mkdirSync(dir, { recursive: true });
for (let z = 0; z < 50; z++) writeFileSync(join(dir, `zone-${z}.yaml`), realisticZone({ zone: `bench-${z}.example.com`, rules: 1000, customRules: 50 }));
const { zones } = await loadManifests([dir]);
const provider = await openProvider({ stateDir: state });
for (const r of await planZones(provider, zones, {})) { const res = await applyZone(r.plan!, provider); if (!res.ok) throw new Error('apply failed'); }
await provider.close();
console.log('done');
