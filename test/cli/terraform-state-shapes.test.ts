/**
 * `migrate --from-terraform-state` and `migrate firewall-terraform` given a state whose resource
 * holds a value of the wrong shape (`rules = "nope"`): the lenient attribute readers took it as
 * unset, converted nothing, exited 0, wrote the manifest and still listed the resource for
 * `terraform state rm` (which would have dropped the live rules from Terraform's care). Now one
 * line naming the file, the resource and the field, exit 1, nothing written. The real CLI.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, zonewall } from '../helpers/e2e-cli.js';

const zoneId = '9a7806061c88ada191ed06f989cc3dac';
const zone = { mode: 'managed', type: 'cloudflare_zone', name: 'main', instances: [{ attributes: { id: zoneId, zone: 'shop.example', plan: 'enterprise' } }] };
const resource = (type: string, name: string, attributes: Record<string, unknown>) => ({ mode: 'managed', type, name, instances: [{ attributes: { zone_id: zoneId, ...attributes } }] });
const state = (...resources: unknown[]) => JSON.stringify({ version: 4, terraform_version: '1.5.7', resources: [zone, ...resources] });

const filter = resource('cloudflare_filter', 'bots', { id: 'f1', expression: 'http.user_agent contains "bot"', description: 'bots', paused: false });
const rule = (extra: Record<string, unknown>) => resource('cloudflare_firewall_rule', 'bots', { id: 'r1', filter_id: 'f1', action: 'block', priority: null, description: 'bots', paused: false, products: null, ...extra });
const customRule = { id: 'c1', action: 'block', expression: 'http.host eq "x"', description: 'x', enabled: true };

let temp: ReturnType<typeof tempDir>;
beforeAll(() => { requireBuild(); temp = tempDir('tf-shapes'); });
afterAll(() => temp.cleanup());

const cases: [string, string, string][] = [
  ['a ruleset whose rules is a string', state(resource('cloudflare_ruleset', 'custom', { id: 'rs', kind: 'zone', name: 'default', phase: 'http_request_firewall_custom', rules: 'nope' })),
    'cloudflare_ruleset.custom: field rules must be a list of blocks (objects), not string "nope"'],
  ['a ruleset rule that is not a block', state(resource('cloudflare_ruleset', 'custom', { id: 'rs', kind: 'zone', name: 'default', phase: 'http_request_firewall_custom', rules: [customRule, 'x'] })),
    'cloudflare_ruleset.custom: field rules must be a list of blocks (objects), not a list of 2'],
  ['a ruleset rule whose action_parameters is a number', state(resource('cloudflare_ruleset', 'managed', { id: 'rs', kind: 'zone', name: 'default', phase: 'http_request_firewall_managed', rules: [{ ...customRule, action: 'execute', action_parameters: 7 }] })),
    'cloudflare_ruleset.managed: field rules[0].action_parameters must be a block (an object), not number 7'],
  ['a firewall rule whose products is a string', state(filter, rule({ products: 'waf' })),
    'cloudflare_firewall_rule.bots: field products must be a list, not string "waf"'],
  ['a firewall rule whose paused is a string', state(filter, rule({ paused: 'yes' })),
    'cloudflare_firewall_rule.bots: field paused must be true or false, not string "yes"'],
  ['a filter whose expression is a list', state(resource('cloudflare_filter', 'bots', { id: 'f1', expression: ['a'] }), rule({})),
    'cloudflare_filter.bots: field expression must be a string, not a list of 1'],
  ['a rate limit whose match is a string', state(resource('cloudflare_rate_limit', 'login', { id: 'rl', threshold: 5, period: 60, match: 'POST /login' })),
    'cloudflare_rate_limit.login: field match must be a block (an object), not string "POST /login"'],
];

describe('a Terraform state of the wrong shape', () => {
  for (const [name, text, where] of cases) {
    it(`${name}: one line naming the resource and field, exit 1, nothing written`, async () => {
      const file = join(temp.dir, `${name.replace(/\W+/g, '-')}.tfstate`);
      writeFileSync(file, text);
      const out = join(temp.dir, `${name.replace(/\W+/g, '-')}.yaml`);
      const run = await zonewall(['migrate', out, '--from-terraform-state', file, '--write'], { cwd: temp.dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`error: ${file}: ${where}: this is not what the Terraform provider writes; fix the state (or pass the output of \`terraform show -json\`) and run again\n`);
      expect(run.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
      expect(existsSync(join(temp.dir, 'account.yaml'))).toBe(false);
    }, 30_000);
  }

  it('migrate firewall-terraform refuses it too, printing no HCL', async () => {
    const file = join(temp.dir, 'fw.tfstate');
    writeFileSync(file, state(filter, rule({ products: 'waf' })));
    const run = await zonewall(['migrate', 'firewall-terraform', file], { cwd: temp.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`error: ${file}: cloudflare_firewall_rule.bots: field products must be a list, not string "waf": this is not what the Terraform provider writes; fix the state (or pass the output of \`terraform show -json\`) and run again\n`);
  }, 30_000);

  it('the shapes every provider version writes still convert (v3/v4 one-element blocks, v5 objects, nulls)', async () => {
    const file = join(temp.dir, 'good.tfstate');
    writeFileSync(file, state(filter, rule({ action: { mode: 'block' }, products: [] }),
      resource('cloudflare_ruleset', 'managed', { id: 'rs', kind: 'zone', name: 'default', phase: 'http_request_firewall_managed', rules: [{ ...customRule, action: 'execute', action_parameters: [{ id: 'efb7b8c949ac4650a09736fc376e9aee', overrides: null }], logging: null }] })));
    const run = await zonewall(['migrate', '--from-terraform-state', file], { cwd: temp.dir });
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('  - ruleset: managed\n');
    expect(run.stdout).toContain('    action: block\n');
  }, 30_000);
});

describe('a Terraform state whose structure is of the wrong shape', () => {
  // `resources: "x"`, an instance whose attributes are a string, a show -json resource whose values
  // are a list: read leniently, they converted to nothing and the run blamed the state for holding
  // no resource. Now one line naming the place.
  const tail = ': this is not Terraform state as Terraform writes it; pass the .tfstate file or the output of `terraform show -json` unchanged';
  const cases: [string, unknown, string][] = [
    ['resources not a list', { version: 4, resources: 'x' }, 'resources must be a list, not a string'],
    ['a resource without a type', { version: 4, resources: [{ mode: 'managed', name: 'a', instances: [] }] }, 'resources[0].type is missing (it must be a string)'],
    ['instances not a list', { version: 4, resources: [{ mode: 'managed', type: 'cloudflare_filter', name: 'a', instances: {} }] }, 'resources[0] (cloudflare_filter.a).instances must be a list, not an object'],
    ['attributes a string', { version: 4, resources: [{ mode: 'managed', type: 'cloudflare_filter', name: 'a', instances: [{ attributes: 'x' }] }] }, 'resources[0] (cloudflare_filter.a).instances[0].attributes must be an object, not a string'],
    ['show -json values a list', { format_version: '1.0', values: { root_module: { resources: [{ mode: 'managed', type: 'cloudflare_filter', name: 'a', address: 'cloudflare_filter.a', values: [] }] } } }, 'values.root_module.resources[0] (cloudflare_filter.a).values must be an object, not a list'],
    ['show -json child_modules an object', { format_version: '1.0', values: { root_module: { child_modules: { a: 1 } } } }, 'values.root_module.child_modules must be a list, not an object'],
  ];
  for (const [name, json, message] of cases) {
    it(`${name}: one line naming the place, exit 1`, async () => {
      const file = join(temp.dir, `${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, JSON.stringify(json));
      const run = await zonewall(['migrate', '--from-terraform-state', file], { cwd: temp.dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`error: ${file}: ${message}${tail}\n`);
      expect(run.stdout).toBe('');
    }, 30_000);
  }
});
