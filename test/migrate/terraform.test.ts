import fs from 'node:fs';
import path from 'node:path';
import { adoptionParts } from '../plan/fixtures.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseTerraformState } from '../../src/migrate/terraform-state.js';
import { convertTerraform, kindOf } from '../../src/migrate/terraform-convert.js';
import { terraformAdoption } from '../../src/migrate/terraform-adopt.js';
import { checkConvertedManifest, renderConversionReport, renderConvertedManifest } from '../../src/migrate/terraform-render.js';
import { slug, uniqueKey } from '../../src/migrate/terraform-attributes.js';

const fixtures = path.join(import.meta.dirname, '..', '..', 'examples', 'terraform');
const read = (name: string) => parseTerraformState(fs.readFileSync(path.join(fixtures, name), 'utf8'), name);

describe('parseTerraformState', () => {
  it('reads a .tfstate: managed resources only, with module and index in the address', () => {
    const state = read('svc-previous-waf.tfstate');
    expect(state.format).toBe('tfstate');
    expect(state.resources.map((r) => r.address)).toContain('svc_waf_group.owasp_groups["bad_robots"]');
    expect(state.resources.map((r) => r.address)).toContain('module.owasp_tuning.svc_waf_rule.crawler');
    expect(state.resources.some((r) => r.address.includes('lookup'))).toBe(false);
  });

  it('reads `terraform show -json`, child modules included', () => {
    const state = read('cloudflare-show.json');
    expect(state.format).toBe('show-json');
    expect(state.resources.map((r) => r.address)).toContain('module.waf.module.nested.cloudflare_waf_rule.log4j');
    expect(state.resources.find((r) => r.type === 'cloudflare_waf_rule' && r.name === 'rules')!.address).toBe('module.waf.cloudflare_waf_rule.rules["WP0025B"]');
  });

  it('refuses what is not state, saying what it expected', () => {
    expect(() => parseTerraformState('nope', 'x.json')).toThrow(/x.json: not JSON/);
    expect(() => parseTerraformState('{"a":1}', 'x.json')).toThrow(/neither a .tfstate file/);
    expect(() => parseTerraformState('{"version":3,"modules":[]}', 'old.tfstate')).toThrow(/format version 3 is not supported/);
  });

  it('refuses a state with a key written twice at the repeat, and says where a state that is not JSON breaks in one line', () => {
    // JSON keeps the last: the first expression of the filter was dropped without a word.
    const twice = '{"version": 4, "resources": [{"mode": "managed", "type": "svc_filter", "name": "f", "instances": [\n  {"attributes": {"id": "f1", "expression": "ip.src eq 192.0.2.1",\n   "expression": "true"}}]}]}';
    expect(() => parseTerraformState(twice, 'twice.tfstate')).toThrow('twice.tfstate:3:4: resources[0].instances[0].attributes has "expression" twice (JSON keeps only the last, silently): Terraform writes each key once, so the state was edited or damaged: use the state Terraform wrote (terraform show -json)');
    let message = '';
    try { parseTerraformState('{\n"version": 4,\n"resources": nope\n}', 'bad.tfstate'); } catch (err) { message = (err as Error).message; }
    expect(message).toMatch(/^bad\.tfstate: not JSON/);
    expect(message).not.toMatch(/\n|nope/);
  });

  it('accepts an empty show -json (no values)', () => {
    expect(parseTerraformState('{"format_version":"1.0"}', 'e.json').resources).toEqual([]);
  });
});

describe('checkConvertedManifest', () => {
  /** A state whose values no manifest accepts: a hand-edited action and a broken expression. */
  const garbage = JSON.stringify({
    version: 4,
    resources: [
      { mode: 'managed', type: 'svc_filter', name: 'f', instances: [{ attributes: { id: 'f1', zone_id: 'z1', expression: 'http.host eq ' } }] },
      { mode: 'managed', type: 'svc_firewall_rule', name: 'r', instances: [{ attributes: { id: 'r1', zone_id: 'z1', action: 'frobnicate', filter_id: 'f1' } }] },
    ],
  });

  it('passes a conversion that validates', () => {
    const text = renderConvertedManifest(convertTerraform(read('svc-previous-waf.tfstate').resources, 'tf.test'), 'state.tfstate');
    expect(() => checkConvertedManifest(text, 'state.tfstate')).not.toThrow();
  });

  it('refuses one holding values no manifest accepts, naming each by its manifest path', () => {
    const converted = convertTerraform(parseTerraformState(garbage, 'bad.tfstate').resources, 'bad.test');
    const text = renderConvertedManifest(converted, 'bad.tfstate');
    expect(() => checkConvertedManifest(text, 'bad.tfstate')).toThrow(/converted from bad.tfstate is not valid \(2 problem\(s\)\); nothing was written/);
    expect(() => checkConvertedManifest(text, 'bad.tfstate')).toThrow(/firewall_rules.r.action: must be one of .*got "frobnicate"/);
    expect(() => checkConvertedManifest(text, 'bad.tfstate')).toThrow(/filters.f.expression: /);
  });
});

describe('convertTerraform: svc_ resources of a .tfstate', () => {
  const c = convertTerraform(read('svc-previous-waf.tfstate').resources, 'example.com');

  it('names the zone as asked and keeps the zone id', () => {
    expect(c.zone).toBe('example.com');
    expect(c.zoneId).toBe('023e105f4ecef8ad9ca31a8372d0c353');
  });

  it('keys filters by ref, else description, else resource name', () => {
    expect(c.filters.map((f) => [f.key, f.address])).toEqual([['api-traffic', 'svc_filter.api_paths'], ['office-ips', 'svc_filter.office']]);
  });

  it('orders firewall rules by priority and points them at filter keys', () => {
    expect(c.firewallRules.map((r) => [r.key, r.value])).toEqual([
      ['office_bypass', { action: 'bypass', filter: 'office-ips', priority: 10, products: ['waf'] }],
      ['block-api-scanners', { action: 'block', filter: 'api-traffic', priority: 20, description: 'Block API scanners' }],
    ]);
  });

  it('converts every previous-WAF resource type, aliases for known packages', () => {
    expect(c.previousWaf!.packages.map((p) => [p.key, p.value])).toEqual([['owasp', { sensitivity: 'medium', action_mode: 'simulate' }]]);
    expect(c.previousWaf!.groups.map((g) => [g.key, g.value])).toEqual([['c956a7bf4225adc26448b0badc12f17a', 'off'], ['07d700cf30fda7548be94ff01087d0c4', 'off']]);
    expect(c.previousWaf!.rules.map((r) => [r.key, r.value])).toEqual([['100514', 'simulate'], ['990012', 'off']]);
  });

  it('reports the URI-based override as a blocker with the command that deletes it', () => {
    const blocker = c.notes.find((n) => n.severity === 'blocker')!;
    expect(blocker.address).toBe('svc_waf_override.admin');
    expect(blocker.message).toContain('zonewall migrate delete-overrides --zone example.com de677e5818985db1285d0e80225f06e5 --force');
  });

  it('reports other phases and other types as skipped', () => {
    expect(c.notes.filter((n) => n.severity === 'skipped').map((n) => n.address)).toEqual(['svc_dns_record']);
    // The custom phase's ruleset (no rules) is converted: custom_rules {} manages the empty phase, as the resource did.
    expect(c.customRules).toMatchObject({ address: 'svc_ruleset.custom', rules: {} });
  });

  it('writes a manifest that reads back, each object commented with its address', () => {
    const text = renderConvertedManifest(c, 'terraform.tfstate');
    expect(text).toContain('# from svc_filter.api_paths\n  api-traffic:');
    expect(text).toContain('# from module.owasp_tuning.svc_waf_rule.crawler\n    "990012": off');
    const js = parse(text);
    expect(Object.keys(js)).toEqual(['zone', 'filters', 'firewall_rules', 'custom_rules', 'previous_waf']);
    expect(js.previous_waf.packages).toEqual({ owasp: { sensitivity: 'medium', action_mode: 'simulate' } });
  });

  it('reports the next steps, terraform state rm included', () => {
    const text = renderConversionReport(c, 'zone.yaml');
    expect(text).toMatch(/^Converted 10 resource\(s\) of zone example.com: 2 filter\(s\), 2 firewall rule\(s\), 0 custom rule\(s\), 0 rate limiting rule\(s\), 0 managed ruleset\(s\), 0 managed rules exception\(s\), previous WAF: 1 package\(s\), 2 group\(s\), 2 rule\(s\)\./);
    expect(text).toContain(`terraform state rm -dry-run svc_filter.api_paths svc_filter.office`);
    expect(text).toContain(`'svc_waf_group.owasp_groups["bad_robots"]'`);
    expect(text).toContain('zonewall migrate zone.yaml');
  });
});

describe('convertTerraform: cloudflare_ resources of terraform show -json', () => {
  const c = convertTerraform(read('cloudflare-show.json').resources);

  it('takes the zone name from the zone resource', () => {
    expect(c.zone).toBe('shop.example');
  });

  it('converts a rule without priority to priority null', () => {
    expect(c.firewallRules.map((r) => [r.key, r.value])).toEqual([['sqlmap', { action: 'managed_challenge', filter: 'sqlmap-user-agent', priority: null }]]);
  });

  it('skips the traditional CloudFlare package and keeps the OWASP one', () => {
    expect(c.previousWaf!.packages.map((p) => p.key)).toEqual(['owasp']);
    expect(c.notes.find((n) => n.address === 'cloudflare_waf_package.cloudflare')!.severity).toBe('skipped');
  });

  it('converts the managed-phase ruleset with nested blocks, status and shorthand', () => {
    // A ref equal to the rule's id is the API's default, not a key: the item keeps its default key.
    expect(c.managedRules!.entries).toEqual([
      {
        ruleset: 'managed', description: 'Cloudflare Managed Ruleset',
        overrides: { categories: [{ category: 'wordpress', enabled: false }], rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log' }] },
      },
      { ruleset: 'owasp', ref: 'owasp-core', enabled: false, paranoia_level: 1, score_threshold: 'medium', action: 'block' },
    ]);
    expect(c.notes.find((n) => n.severity === 'warning')!.message).toMatch(/rule 3 \(skip: office\) is `current` with no deployment after it, so it skips nothing/);
  });

  it('finds rules and overrides in nested modules', () => {
    expect(c.previousWaf!.rules.map((r) => [r.key, r.address])).toEqual([
      ['WP0025B', 'module.waf.cloudflare_waf_rule.rules["WP0025B"]'],
      ['100514', 'module.waf.module.nested.cloudflare_waf_rule.log4j'],
    ]);
    expect(c.notes.find((n) => n.severity === 'blocker')!.message).toContain('shop.example/legacy/*, shop.example/old/*');
  });
});

describe('zone selection and keys', () => {
  const resource = (zone: string, name: string) => ({ address: `svc_filter.${name}`, type: 'svc_filter', name, attributes: { id: name, zone_id: zone, expression: `http.host eq "${name}"` } });

  it('needs --zone when the state holds several zones, and picks one with it', () => {
    const rs = [resource('z1', 'a'), resource('z2', 'b')];
    expect(() => convertTerraform(rs)).toThrow(/2 zones \(z1, z2\).*--zone/);
    const c = convertTerraform(rs, 'z2');
    expect(c.filters.map((f) => f.key)).toEqual(['b']);
    expect(c.notes).toEqual([{ address: 'svc_filter.a', severity: 'skipped', message: 'belongs to another zone (z1)' }]);
    expect(() => convertTerraform(rs, 'z3')).toThrow(/matches none of the zones/);
  });

  it('skips a bypass rule without products, which the service would refuse', () => {
    const rs = [resource('z1', 'a'), { address: 'svc_firewall_rule.b', type: 'svc_firewall_rule', name: 'b', attributes: { zone_id: 'z1', filter_id: 'a', action: 'bypass', products: [] } }];
    const c = convertTerraform(rs);
    expect(c.firewallRules).toEqual([]);
    expect(c.notes).toEqual([{ address: 'svc_firewall_rule.b', severity: 'skipped', message: expect.stringMatching(/bypass rule without products/) }]);
  });

  it('refuses a state with nothing to convert', () => {
    expect(() => convertTerraform([])).toThrow(/nothing to convert/);
  });

  it('recognises both provider prefixes', () => {
    expect(kindOf('svc_waf_package')).toBe('waf_package');
    expect(kindOf('cloudflare_waf_override')).toBe('waf_override');
    expect(kindOf('cloudflare_record')).toBeUndefined();
    expect(kindOf('aws_waf_rule')).toBeUndefined();
  });

  it('makes keys from free text and keeps them unique', () => {
    expect(slug('Block  SQLi / XSS!')).toBe('block-sqli-xss');
    expect(slug('***')).toBeUndefined();
    const taken = new Set<string>();
    expect([uniqueKey(['a'], taken, 'f'), uniqueKey(['a'], taken, 'f'), uniqueKey([undefined, 'bad key'], taken, 'f')]).toEqual(['a', 'a-2', 'f']);
  });
});

describe('terraformAdoption: the live objects the state names get their keys as refs', () => {
  it('writes refs of filters, firewall rules and entry point rules found by id, and lists what the zone lacks', () => {
    const converted = convertTerraform(parseTerraformState(JSON.stringify({ version: 4, resources: [
      { mode: 'managed', type: 'svc_filter', name: 'office', instances: [{ attributes: { id: 'f1', zone_id: 'z', expression: 'ip.src in {192.0.2.0/24}' } }] },
      { mode: 'managed', type: 'svc_filter', name: 'gone', instances: [{ attributes: { id: 'f9', zone_id: 'z', expression: 'http.host eq "x"' } }] },
      { mode: 'managed', type: 'svc_firewall_rule', name: 'bypass', instances: [{ attributes: { id: 'r1', zone_id: 'z', filter_id: 'f1', action: 'bypass', products: ['waf'], priority: 1 } }] },
      { mode: 'managed', type: 'svc_ruleset', name: 'm', instances: [{ attributes: { zone_id: 'z', phase: 'http_request_firewall_managed', kind: 'zone',
        rules: [{ id: 'e1', ref: 'e1', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] } }] },
    ] }), 'tf.json').resources);
    const filter = { id: 'f1', expression: 'ip.src in {192.0.2.0/24}', paused: false };
    const a = terraformAdoption(converted, {
      zone: { id: 'z', name: 'z.test' }, filters: [filter], previousWaf: null, migration: null,
      firewallRules: [{ id: 'r1', action: 'bypass', priority: 1, paused: false, products: ['waf'], filter }],
      entrypoint: { id: 'ep', name: 'default', kind: 'zone', phase: 'http_request_firewall_managed', version: '1',
        rules: [{ id: 'e1', ref: 'e1', version: '1', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] },
    });
    expect(adoptionParts(a.writes).filters).toEqual([{ id: 'f1', expression: 'ip.src in {192.0.2.0/24}', paused: false, ref: 'office' }]);
    expect(adoptionParts(a.writes).firewallRules).toEqual([{ id: 'r1', action: 'bypass', priority: 1, paused: false, products: ['waf'], ref: 'bypass', filter: { id: 'f1' } }]);
    expect(adoptionParts(a.writes).entrypoint!.rules).toEqual([{ id: 'e1', ref: 'managed', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }]);
    expect(a.missing).toEqual(['svc_filter.gone']);
  });
});
