/**
 * The Terraform path of the firewall upgrade, on the embedded engine with the built CLI: a zone
 * whose filters and firewall rules Terraform made (no zonewall ref), a `.tfstate` naming them by
 * their live ids under count (`cloudflare_filter.shared[0]`) and for_each
 * (`cloudflare_firewall_rule.rules["block-api"]`) addresses. `migrate --from-terraform-state
 * --write` converts and adopts (the first plan is empty); `migrate firewall-terraform` prints the
 * `cloudflare_ruleset` and the `terraform state rm` of every old address; the cutover moves the
 * zone, and the plan is empty again with the same rules as the HCL. Also the HCL string escapes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hclString } from '../../../src/migrate/index.js';
import { withEngine, workspace } from '../cli.js';

const ws = workspace('fw-terraform', (r, what) => expect(r.code, what).toBe(0));
const { dir, stateDir, run } = ws;
afterAll(() => ws.remove());

interface Live { zoneId: string; filters: { id: string }[]; rules: { id: string }[] }

const filterExpressions = ['starts_with(http.request.uri.path, "/api")', 'ip.src in {203.0.113.0/24}'];
const ruleSpecs = [
  { key: 'allow-office', action: 'allow', priority: 1, filter: 1, products: [] as string[] },
  { key: 'bypass-office', action: 'bypass', priority: 2, filter: 1, products: ['waf'] },
  { key: 'log-api', action: 'log', priority: 5, filter: 0, products: [] },
  { key: 'block-api', action: 'block', priority: 5, filter: 0, products: [] },
];

async function terraformCreated(name: string): Promise<Live> {
  return withEngine(stateDir, async (call, engine) => {
    const zoneId = (await engine.getZone(name))!.id;
    const filters = await call('POST', `/zones/${zoneId}/filters`, filterExpressions.map((expression) => ({ expression }))) as { id: string }[];
    const rules = await call('POST', `/zones/${zoneId}/firewall/rules`, ruleSpecs.map((r) => ({
      action: r.action, priority: r.priority, description: r.key, filter: { id: filters[r.filter]!.id }, ...(r.products.length > 0 ? { products: r.products } : {}),
    }))) as { id: string }[];
    return { zoneId, filters, rules };
  });
}

function tfstate(live: Live): string {
  const zone_id = live.zoneId;
  return JSON.stringify({ version: 4, terraform_version: '1.9.0', serial: 1, lineage: 'l', outputs: {}, resources: [
    { mode: 'managed', type: 'cloudflare_filter', name: 'shared', provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
      instances: filterExpressions.map((expression, i) => ({ index_key: i, schema_version: 0, attributes: { id: live.filters[i]!.id, zone_id, expression, description: '', paused: false, ref: '' } })) },
    { mode: 'managed', type: 'cloudflare_firewall_rule', name: 'rules', provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
      instances: ruleSpecs.map((r, i) => ({ index_key: r.key, schema_version: 0, attributes: {
        id: live.rules[i]!.id, zone_id, filter_id: live.filters[r.filter]!.id, action: r.action, priority: r.priority, description: r.key, paused: false, products: r.products,
      } })) },
  ] });
}

describe('the firewall upgrade from Terraform state', () => {
  it('converts count and for_each addresses, adopts (plan empty), prints the ruleset and the state rm, and plans empty after the cutover', { timeout: 240_000 }, async () => {
    expect((await run('engine', 'zone', 'create', 'tf.test', '--plan', 'enterprise')).code).toBe(0);
    const live = await terraformCreated('tf.test');
    const state = path.join(dir, 'terraform.tfstate');
    fs.writeFileSync(state, tfstate(live));
    const file = path.join(dir, 'zone.yaml');

    const imported = await run('migrate', file, '--from-terraform-state', state, '--zone', 'tf.test', '--write');
    expect(imported.code, imported.stderr).toBe(0);
    expect((await run('plan', file, '--detailed-exitcode')).code).toBe(0);

    const tf = await run('migrate', 'firewall-terraform', state, '--zone', 'tf.test', '--manifest', file);
    expect(tf.code, tf.stderr).toBe(0);
    expect(tf.stdout).toContain('resource "cloudflare_ruleset" "custom_rules" {');
    expect(tf.stdout).toContain(`zone_id = "${live.zoneId}"`);
    expect(tf.stdout).toContain('phase   = "http_request_firewall_custom"');
    expect(tf.stderr).toContain('every verdict is the same');
    expect(tf.stderr).toContain(`terraform state rm 'cloudflare_filter.shared[0]' 'cloudflare_filter.shared[1]' 'cloudflare_firewall_rule.rules["allow-office"]'`);
    expect(tf.stderr).toContain(`'cloudflare_firewall_rule.rules["block-api"]'`);
    expect(tf.stderr).toContain(`terraform import cloudflare_ruleset.custom_rules zones/${live.zoneId}/`);
    const hclRefs = [...tf.stdout.matchAll(/ref = "([^"]+)"/g)].map((m) => m[1]);
    const hclActions = [...tf.stdout.matchAll(/ {6}action = "([^"]+)"/g)].map((m) => m[1]);
    expect(hclActions).toEqual(['skip', 'skip', 'log', 'block']);
    expect(tf.stdout).toContain('ruleset = "current"');
    expect(tf.stdout).toContain('products = ["waf"]');

    const cut = await run('migrate', 'firewall-cutover', file, '--auto-approve');
    expect(cut.code, cut.stderr).toBe(0);
    expect((await run('plan', file, '--detailed-exitcode')).code).toBe(0);
    const written = parse(fs.readFileSync(file, 'utf8')) as { custom_rules: Record<string, { action: string }>; firewall_rules?: unknown; filters?: unknown };
    expect(written.firewall_rules).toBeUndefined();
    expect(written.filters).toBeUndefined();
    // The manifest and the HCL carry the same rules in the same order.
    expect(Object.keys(written.custom_rules)).toEqual(hclRefs);
    const after = await withEngine(stateDir, async (call, engine) => {
      const zoneId = (await engine.getZone('tf.test'))!.id;
      return { filters: await call('GET', `/zones/${zoneId}/filters`) as unknown[], rules: await call('GET', `/zones/${zoneId}/firewall/rules`) as unknown[] };
    });
    expect(after).toEqual({ filters: [], rules: [] });
  });

  it('HCL strings escape quotes, backslashes and template sequences', () => {
    expect(hclString('a "b" \\ ${x} %{y}')).toBe('"a \\"b\\" \\\\ $${x} %%{y}"');
  });
});
