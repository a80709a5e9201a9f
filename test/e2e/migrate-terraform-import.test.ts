/**
 * The seed's tooling path for infrastructure-as-code users (seed 002, "Notes"), on a zone whose
 * objects Terraform created: filters, firewall rules, the previous WAF's package, groups and rules,
 * and the managed-phase ruleset, none with a zonewall ref. The state names them by their live ids.
 * "Import it into the tool's state; run the plan command and expect no pending changes": `zonewall
 * migrate --from-terraform-state --write` converts and adopts, and `zonewall plan` is empty. Then
 * the previous resource types leave (the migration finishes) and the plan is empty again. The built
 * CLI as a child process on the embedded engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withEngine, workspace } from '../migrate/cli.js';

const OWASP = 'c504870194831cd12c3fc0284f294abb';
const VENDOR = '1e334934fd7ae32ad705667f8c1057aa';
const BAD_ROBOTS = '07d700cf30fda7548be94ff01087d0c4';
const WORDPRESS = 'c956a7bf4225adc26448b0badc12f17a';
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const CliTimeout = 240_000;
const ws = workspace('tf-import', (r, what) => expect(r.code, what).toBe(0));
const { dir, stateDir, run } = ws;
afterAll(() => ws.remove());

interface Live { zoneId: string; filters: { id: string }[]; rules: { id: string }[]; entrypointRules: { id: string }[] }

/** What Terraform created on the zone, through the engine's v4 API (no refs anywhere). */
async function terraformCreated(name: string): Promise<Live> {
  return withEngine(stateDir, async (call, engine) => {
    const zoneId = (await engine.getZone(name))!.id;
    const filters = await call('POST', `/zones/${zoneId}/filters`, [
      { expression: 'http.request.uri.path matches "^/api/"', description: 'API traffic' },
      { expression: 'ip.src in {192.0.2.0/24}' },
    ]) as { id: string }[];
    const rules = await call('POST', `/zones/${zoneId}/firewall/rules`, [
      { action: 'block', priority: 20, description: 'Block API scanners', filter: { id: filters[0]!.id } },
      { action: 'bypass', priority: 10, products: ['waf'], filter: { id: filters[1]!.id } },
    ]) as { id: string }[];
    await call('PATCH', `/zones/${zoneId}/firewall/waf/packages/${OWASP}`, { sensitivity: 'medium', action_mode: 'simulate' });
    await call('PATCH', `/zones/${zoneId}/firewall/waf/packages/${OWASP}/groups/${BAD_ROBOTS}`, { mode: 'off' });
    await call('PATCH', `/zones/${zoneId}/firewall/waf/packages/${VENDOR}/groups/${WORDPRESS}`, { mode: 'off' });
    await call('PATCH', `/zones/${zoneId}/firewall/waf/packages/${OWASP}/rules/990012`, { mode: 'off' });
    const entrypoint = await call('PUT', `/zones/${zoneId}/rulesets/phases/http_request_firewall_managed/entrypoint`, {
      rules: [{ action: 'execute', expression: 'true', enabled: true, action_parameters: { id: MANAGED, overrides: { rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log' }] } } }],
    }) as { rules: { id: string }[] };
    return { zoneId, filters, rules, entrypointRules: entrypoint.rules };
  });
}

/** A `.tfstate` (format 4) naming those objects by their live ids, as `terraform import` leaves it. */
function tfstate(live: Live): string {
  const zone_id = live.zoneId;
  const resource = (type: string, name: string, attributes: Record<string, unknown>) => ({
    mode: 'managed', type, name, provider: 'provider["registry.terraform.io/acme/svc"]', instances: [{ schema_version: 0, attributes: { zone_id, ...attributes } }],
  });
  return JSON.stringify({ version: 4, terraform_version: '1.5.7', serial: 1, lineage: 'l', outputs: {}, resources: [
    resource('svc_filter', 'api_paths', { id: live.filters[0]!.id, expression: 'http.request.uri.path matches "^/api/"', description: 'API traffic', paused: false, ref: '' }),
    resource('svc_filter', 'office', { id: live.filters[1]!.id, expression: 'ip.src in {192.0.2.0/24}', description: '', paused: false, ref: '' }),
    resource('svc_firewall_rule', 'block_api_scanners', { id: live.rules[0]!.id, filter_id: live.filters[0]!.id, action: 'block', priority: 20, description: 'Block API scanners', paused: false, products: [] }),
    resource('svc_firewall_rule', 'office_bypass', { id: live.rules[1]!.id, filter_id: live.filters[1]!.id, action: 'bypass', priority: 10, description: '', paused: false, products: ['waf'] }),
    resource('svc_waf_package', 'owasp', { id: OWASP, package_id: OWASP, sensitivity: 'medium', action_mode: 'simulate' }),
    resource('svc_waf_group', 'bad_robots', { id: BAD_ROBOTS, group_id: BAD_ROBOTS, package_id: OWASP, mode: 'off' }),
    resource('svc_waf_group', 'wordpress', { id: WORDPRESS, group_id: WORDPRESS, package_id: VENDOR, mode: 'off' }),
    resource('svc_waf_rule', 'crawler', { id: '990012', rule_id: '990012', package_id: OWASP, mode: 'off' }),
    resource('svc_ruleset', 'managed', { id: 'r'.repeat(32), name: 'default', kind: 'zone', phase: 'http_request_firewall_managed', rules: [{
      id: live.entrypointRules[0]!.id, ref: live.entrypointRules[0]!.id, action: 'execute', expression: 'true', enabled: true, description: '',
      action_parameters: { id: MANAGED, overrides: { rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log' }] } },
    }] }),
  ] });
}

describe('the seed\'s Terraform tooling path on a zone with live ids', () => {
  it('imports (converts and adopts), then plans empty; after the migration the plan is empty again', { timeout: CliTimeout }, async () => {
    expect((await run('engine', 'zone', 'create', 'import.test', '--plan', 'enterprise')).code).toBe(0);
    const live = await terraformCreated('import.test');
    const state = path.join(dir, 'terraform.tfstate');
    fs.writeFileSync(state, tfstate(live));
    const file = path.join(dir, 'zone.yaml');

    const imported = await run('migrate', file, '--from-terraform-state', state, '--zone', 'import.test', '--write');
    expect(imported.code, `${imported.stdout}\n${imported.stderr}`).toBe(0);
    expect(imported.stdout).toContain('Adopted 5 live object(s) of import.test named by the state\'s ids');
    expect(imported.stdout).toContain(`firewall rule ${live.rules[0]!.id} as block-api-scanners`);

    const plan = await run('plan', file, '--detailed-exitcode');
    expect(plan.code, `${plan.stdout}\n${plan.stderr}`).toBe(0);
    expect(plan.stdout).not.toContain('duplicate-expression');

    const migrated = await run('migrate', file, '--mode', 'pending', '--force', '--write');
    expect(migrated.code, `${migrated.stdout}\n${migrated.stderr}`).toBe(0);
    expect(parse(fs.readFileSync(file, 'utf8')).previous_waf).toBeUndefined();
    const again = await run('plan', file, '--detailed-exitcode');
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0);
  });
});
