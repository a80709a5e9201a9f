/**
 * Plan-gated fields in every kind's expressions through the CLI (issue 33): `validate --plan TIER`
 * and `plan` refuse a filter's, a rate limiting counting expression's and a managed-rules
 * exception's field the plan lacks at its file:line:column, and `apply` writes nothing (the
 * engine refuses it too: 10201 for a filter, 20204 in a rules phase).
 */
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state]);

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('gated'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

const Zone = 'gated.example.com';

describe('plan-gated fields through the CLI', () => {
  it.each([
    ['a filter', 'pro', 'filters:\n  eu:\n    expression: ip.src.is_in_european_union\nfirewall_rules:\n  eu:\n    action: block\n    filter: eu\nwaf_migration: none\n',
      /zone\.yaml:5:17: filters\.eu\.expression: ip\.src\.is_in_european_union .*needs a Business plan/],
    ['a rate limiting counting expression', 'business',
      'rate_limiting_rules:\n  login:\n    action: block\n    expression: http.request.uri.path eq "/login"\n    ratelimit:\n      characteristics: [ip.src]\n      period: 10\n      requests_per_period: 5\n      mitigation_timeout: 10\n      counting_expression: cf.waf.score lt 20\n',
      /zone\.yaml:12:28: rate_limiting_rules\.login\.ratelimit\.counting_expression: cf\.waf\.score .*needs an Enterprise plan/],
    ['a managed-rules exception', 'pro',
      'managed_rules:\n  - ref: bots\n    skip:\n      rulesets: [managed]\n    expression: cf.bot_management.score lt 30\n  - ruleset: managed\n    enabled: false\n',
      /zone\.yaml:7:17: managed_rules\[0\]\.expression: cf\.bot_management\.score .*needs an Enterprise plan/],
  ])('%s: validate --plan and plan refuse it at its position; apply writes nothing', async (_kind, tier, body, expected) => {
    const file = writeManifest(tmp.dir, 'zone.yaml', `zone: ${Zone}\nplan: ${tier}\n${body}`);
    const validate = await zonewall(['validate', '--plan', tier, file]);
    expect([validate.code, validate.stdout + validate.stderr]).toEqual([1, expect.stringMatching(expected)]);
    const plan = await cli('plan', file);
    expect([plan.code, plan.stdout + plan.stderr]).toEqual([1, expect.stringMatching(/needs an? (Business|Enterprise) plan/)]);
    expect((await cli('apply', file, '--auto-approve', '--force')).code).toBe(1);
    expect((await withEngine(state, (engine) => engine.listZones())).map((z) => z.name)).toEqual([]);
  });
});
