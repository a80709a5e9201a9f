/**
 * Issue 32 item 4, the Terraform path of the firewall upgrade, with the built CLI (no zone needed:
 * `migrate firewall-terraform` touches none): a firewall rule whose filter is not in the state is a
 * `cannot-carry` finding (no HCL, exit 1; `--force` prints the other rules), the import id is
 * provider v5's `zones/<zone_id>/<ruleset_id>`, and manifest keys (the HCL refs) come from the
 * instance keys of `for_each` and `count` rather than description slugs or positions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertTerraform, parseTerraformState } from '../../../src/migrate/index.js';
import { workspace } from '../cli.js';

const ws = workspace('fw-terraform-fixes', (r, what) => expect(r.code, what).toBe(0));
afterAll(() => ws.remove());

const zone_id = '0123456789abcdef0123456789abcdef';
const filter = (id: string, expression: string) => ({ id, zone_id, expression, description: '', paused: false, ref: '' });
const rule = (id: string, filter_id: string, action: string, priority: number, description: string) => ({ id, zone_id, filter_id, action, priority, description, paused: false, products: [] });

/** A `.tfstate` with a for_each of filters, a for_each of rules and a count of rules; `extra` resources after. */
function state(extra: unknown[] = []): string {
  return JSON.stringify({ version: 4, terraform_version: '1.9.0', serial: 1, lineage: 'l', outputs: {}, resources: [
    { mode: 'managed', type: 'cloudflare_filter', name: 'f', instances: [
      { index_key: 'api', attributes: filter('f1', 'starts_with(http.request.uri.path, "/api")') },
      { index_key: 'office', attributes: filter('f2', 'ip.src in {203.0.113.0/24}') },
    ] },
    { mode: 'managed', type: 'cloudflare_firewall_rule', name: 'rules', instances: [
      { index_key: 'block-api', attributes: rule('r1', 'f1', 'block', 5, 'Block the API to everyone else') },
      { index_key: 'allow_office', attributes: rule('r2', 'f2', 'allow', 1, 'Office') },
    ] },
    { mode: 'managed', type: 'cloudflare_firewall_rule', name: 'more', instances: [
      { index_key: 0, attributes: rule('r3', 'f1', 'log', 7, 'log it') },
      { index_key: 1, attributes: rule('r4', 'f2', 'challenge', 8, '') },
    ] },
    ...extra,
  ] });
}

describe('the Terraform path of the firewall upgrade (issue 32 item 4)', () => {
  it('keys filters and rules by for_each keys and count indexes, not description slugs or positions', () => {
    const c = convertTerraform(parseTerraformState(state(), 's.tfstate').resources);
    expect(c.filters.map((f) => f.key)).toEqual(['api', 'office']);
    expect(c.firewallRules.map((r) => [r.key, r.value.filter])).toEqual([['allow_office', 'office'], ['block-api', 'api'], ['more-0', 'api'], ['more-1', 'office']]);
  });

  it('the same keys from `terraform show -json` (index, not index_key)', () => {
    const show = JSON.stringify({ format_version: '1.0', values: { root_module: { resources: [
      { address: 'cloudflare_filter.f["api"]', mode: 'managed', type: 'cloudflare_filter', name: 'f', index: 'api', values: filter('f1', 'http.host eq "a"') },
      { address: 'cloudflare_firewall_rule.more[3]', mode: 'managed', type: 'cloudflare_firewall_rule', name: 'more', index: 3, values: rule('r3', 'f1', 'log', 7, 'log it') },
    ] } } });
    const c = convertTerraform(parseTerraformState(show, 's.json').resources);
    expect(c.filters.map((f) => f.key)).toEqual(['api']);
    expect(c.firewallRules.map((r) => r.key)).toEqual(['more-3']);
  });

  it('a state ref wins over the instance key', () => {
    const withRef = state().replace('"id":"r1","zone_id"', '"id":"r1","ref":"kept-ref","zone_id"');
    const c = convertTerraform(parseTerraformState(withRef, 's.tfstate').resources);
    expect(c.firewallRules.map((r) => r.key)).toContain('kept-ref');
  });

  it('prints the import id zones/<zone_id>/<ruleset_id> and refs from the instance keys', { timeout: 120_000 }, async () => {
    const file = path.join(ws.dir, 'ok.tfstate');
    fs.writeFileSync(file, state());
    const r = await ws.run('migrate', 'firewall-terraform', file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`terraform import cloudflare_ruleset.custom_rules zones/${zone_id}/<`);
    expect(r.stderr).not.toContain(` zone/${zone_id}/`);
    expect([...r.stdout.matchAll(/ref = "([^"]+)"/g)].map((m) => m[1])).toEqual(['allow_office', 'block-api', 'more-0', 'more-1']);
  });

  it('a rule whose filter is not in the state: cannot-carry, no HCL, exit 1; --force prints the rest', { timeout: 120_000 }, async () => {
    const file = path.join(ws.dir, 'missing.tfstate');
    fs.writeFileSync(file, state([{ mode: 'managed', type: 'cloudflare_firewall_rule', name: 'orphan', instances: [{ attributes: rule('r9', 'gone', 'block', 2, 'orphan') }] }]));
    const refused = await ws.run('migrate', 'firewall-terraform', file);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/cannot-carry: cloudflare_firewall_rule\.orphan: firewall rule whose filter gone is not in the state/);
    expect(refused.stderr).toContain('error: no HCL printed');
    const forced = await ws.run('migrate', 'firewall-terraform', file, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('resource "cloudflare_ruleset" "custom_rules"');
    expect([...forced.stdout.matchAll(/ref = "([^"]+)"/g)]).toHaveLength(4);
    expect(forced.stderr).toContain('cannot-carry: cloudflare_firewall_rule.orphan');
  });
});
