/**
 * A plan is a promise (issue 31): what the service refuses mid-apply is found before — offline by
 * `validate --plan TIER`, and by `plan` — and `apply` then writes nothing. The three scenarios of
 * the issue (managed rulesets on an unmigrated Pro/Business zone, 11007; Page Rule URL patterns
 * the service refuses, 1004; migration steps the zone's state does not allow: 11014, 11003, going
 * back after `pending`), and the README's own Manifests example, which applies as written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveObjects, repoRoot, requireBuild, tempDir, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state]);

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('promise'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

const Zone = 'promise.example.com';
const head = (plan: string) => `zone: ${Zone}\nplan: ${plan}\nfilters:\n  f:\n    expression: ip.src eq 192.0.2.1\nfirewall_rules:\n  r:\n    action: block\n    filter: f\n`;

/**
 * validate --plan TIER and plan both refuse with `expected`; apply writes nothing. `existing`: the
 * zone is already in the engine on the previous WAF (a migration step is refused by its state); else
 * apply does not even create it.
 */
async function refusedEverywhere(yaml: string, tier: string, expected: RegExp, existing = false): Promise<void> {
  const file = writeManifest(tmp.dir, 'zone.yaml', yaml);
  if (existing) expect((await cli('engine', 'zone', 'create', Zone, '--plan', tier, '--waf', 'previous')).code).toBe(0);
  const validate = await zonewall(['validate', '--plan', tier, file]);
  expect([validate.code, validate.stdout + validate.stderr]).toEqual([1, expect.stringMatching(expected)]);
  const plan = await cli('plan', file);
  expect([plan.code, plan.stdout + plan.stderr]).toEqual([1, expect.stringMatching(expected)]);
  const apply = await cli('apply', file, '--auto-approve', '--force');
  expect(apply.code).toBe(1);
  const zones = await withEngine(state, (engine) => engine.listZones());
  expect(zones.map((z) => z.name)).toEqual(existing ? [Zone] : []);
  if (existing) expect(await liveObjects(state, Zone)).toMatchObject({ filters: [], rules: [] });
}

describe('found before apply', () => {
  it.each(['pro', 'business'])('managed rulesets enabled on an unmigrated %s zone (11007)', async (tier) => {
    // `waf_migration: none`: the zone stays on the previous WAF (a manifest that says nothing means the new WAF, issue 32).
    await refusedEverywhere(`${head(tier)}managed_rules:\n  - ruleset: managed\nwaf_migration: none\n`, tier, /may only deploy disabled (managed )?rules.*11007/);
  });

  it.each([
    ['a host outside the zone', 'example.com/admin/*', /not in zone promise\.example\.com.*1004/],
    ['a port', `${Zone}:8080/admin/*`, /has a port.*1004/],
    ['more than 4 asterisks', `*${Zone}/*/*/*/*`, /5 asterisks.*at most 4.*1004/],
  ])('a Page Rule URL pattern with %s (1004)', async (_what, url, expected) => {
    await refusedEverywhere(`${head('business')}page_rules:\n  admin:\n    url: "${url}"\n    disable_security: true\n`, 'business', expected);
  });

  it('waf_migration: pending with every managed ruleset disabled (11014)', async () => {
    await refusedEverywhere(`${head('business')}managed_rules:\n  - ruleset: managed\n    enabled: false\nwaf_migration: pending\n`, 'business', /at least one enabled managed ruleset.*11014/, true);
  });

  it('a Bypass > WAF rule under 4,096 characters but over 4 KB of UTF-8, with the migration (11003)', async () => {
    const values = Array.from({ length: 300 }, (_, i) => `"/€€€€€€${String(i).padStart(3, '0')}"`).join(' ');
    const expression = `http.request.uri.path in {${values}}`;
    expect(expression.length).toBeLessThan(4096);
    expect(Buffer.byteLength(expression)).toBeGreaterThan(4096);
    const yaml = `zone: ${Zone}\nplan: business\nfilters:\n  long:\n    expression: '${expression}'\nfirewall_rules:\n  skip-waf:\n    action: bypass\n    products: [waf]\n    filter: long\nmanaged_rules:\n  - ruleset: managed\nwaf_migration: pending\n`;
    await refusedEverywhere(yaml, 'business', /bytes of UTF-8.*4096 bytes.*11003/, true);
  });

  it('waf_migration: none after pending completed is an error at plan, and apply changes nothing', async () => {
    const migrated = writeManifest(tmp.dir, 'zone.yaml', `zone: ${Zone}\nplan: business\nmanaged_rules:\n  - ruleset: managed\nwaf_migration: pending\n`);
    expect((await cli('apply', migrated, '--auto-approve', '--force')).code).toBe(0);
    const back = writeManifest(tmp.dir, 'zone.yaml', `zone: ${Zone}\nplan: business\nfilters:\n  f:\n    expression: ip.src eq 192.0.2.1\nfirewall_rules:\n  r:\n    action: block\n    filter: f\nmanaged_rules:\n  - ruleset: managed\nwaf_migration: none\n`);
    const plan = await cli('plan', back);
    expect([plan.code, plan.stdout]).toEqual([1, expect.stringMatching(/ERROR\s+migration-irreversible/)]);
    expect((await cli('apply', back, '--auto-approve', '--force')).code).toBe(1);
    expect((await liveObjects(state, Zone)).filters).toEqual([]);
  });
});

describe("the README's Manifests example", () => {
  it('validates for its tier, applies as written (with --force for the migration) and then plans empty', async () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Manifests'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const file = writeManifest(tmp.dir, 'shared.yaml', yaml);
    expect((await zonewall(['validate', '--plan', 'business', file])).code).toBe(0);
    const plan = await cli('plan', file);
    expect(plan.stdout).not.toMatch(/ERROR/);
    expect((await cli('apply', file, '--auto-approve', '--force')).code).toBe(0);
    expect((await cli('plan', file, '--detailed-exitcode')).code).toBe(0);
  });
});
