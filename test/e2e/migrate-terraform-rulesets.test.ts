/**
 * `migrate --from-terraform-state` on `cloudflare_ruleset` resources of provider v4 and v5
 * (test/fixtures/terraform: the same zone as a v4 `.tfstate`, a v5 `.tfstate`, and `terraform show
 * -json` of each; a custom-phase ruleset under `count`, the managed phase (with two exceptions) and a
 * rate limiting phase under `for_each` in a module, a list of 31 items and a list item). The four
 * give one zone manifest and one account manifest. Against the zone and account they describe
 * (built through the engine's v4 API from the v5 state's rules, the state's ids then swapped for the
 * live ones), the real CLI converts, writes account.yaml beside the zone manifest, adopts the live
 * rules by id, and the next plan of the directory is empty; the report names the `terraform state rm` steps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { convertTerraform, parseTerraformState, renderAccountManifest, renderConvertedManifest } from '../../src/migrate/index.js';
import { withEngine, workspace } from '../migrate/cli.js';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'terraform');
const files = ['rulesets-v4.tfstate', 'rulesets-v5.tfstate', 'rulesets-v4.show.json', 'rulesets-v5.show.json'];
const read = (f: string) => fs.readFileSync(path.join(fixtures, f), 'utf8');
const fixtureZoneId = '9f1c0a5b7e2d4c6f8a0b1c2d3e4f5a6b';
const fixtureAccountId = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';

const ws = workspace('tf-rulesets', (r, what) => expect(r.code, what).toBe(0));
afterAll(() => ws.remove());

/** A state value as an API body: nulls left out, recursively. */
function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, stripNulls(v)]));
  }
  return value;
}

interface StateRule { id: string; ref: string; [k: string]: unknown }

/** The v5 state's ruleset of a phase. */
function v5Rules(phase: string): StateRule[] {
  const state = JSON.parse(read('rulesets-v5.tfstate')) as { resources: { instances: { attributes: { phase?: string; rules?: StateRule[] } }[] }[] };
  for (const r of state.resources) for (const i of r.instances) if (i.attributes.phase === phase) return i.attributes.rules!;
  throw new Error(`no ${phase} ruleset`);
}

/** Builds the zone the fixtures describe; returns the fixture id → live id map. */
async function buildZone(name: string): Promise<Map<string, string>> {
  return withEngine(ws.stateDir, async (call, engine) => {
    const zoneId = (await engine.getZone(name))!.id;
    const ids = new Map<string, string>([[fixtureZoneId, zoneId]]);
    for (const phase of ['http_request_firewall_custom', 'http_request_firewall_managed', 'http_ratelimit']) {
      const rules = v5Rules(phase);
      // A ref equal to the rule's id is the API's default: Terraform sent none.
      const body = rules.map(({ id, ref, ...rest }) => stripNulls({ ...rest, ...(ref !== id ? { ref } : {}) }));
      const put = await call('PUT', `/zones/${zoneId}/rulesets/phases/${phase}/entrypoint`, { rules: body }) as { id: string; rules: { id: string }[] };
      rules.forEach((r, i) => ids.set(r.id, put.rules[i]!.id));
      ids.set({ http_request_firewall_custom: 'c0ffee00c0ffee00c0ffee00c0ffee01', http_request_firewall_managed: 'c0ffee00c0ffee00c0ffee00c0ffee02' }[phase] ?? 'c0ffee00c0ffee00c0ffee00c0ffee03', put.id);
    }
    // The account's list the state describes (once: both tests share the engine's account).
    const accounts = await call('GET', '/accounts') as { id: string }[];
    const account = accounts[0]!.id;
    ids.set(fixtureAccountId, account);
    const lists = await call('GET', `/accounts/${account}/rules/lists`) as { id: string; name: string }[];
    if (!lists.some((l) => l.name === 'bad_ips')) {
      const list = await call('POST', `/accounts/${account}/rules/lists`, { name: 'bad_ips', kind: 'ip', description: 'Known bad addresses' }) as { id: string };
      const items = [{ ip: '203.0.113.1', comment: 'crawler' }, ...Array.from({ length: 29 }, (_, n) => ({ ip: `203.0.113.${n + 2}` })), { ip: '198.51.100.7', comment: 'scanner' }];
      await call('POST', `/accounts/${account}/rules/lists/${list.id}/items`, items);
    }
    return ids;
  });
}

/** The fixture with its ids swapped for the live zone's. */
function withLiveIds(text: string, ids: Map<string, string>): string {
  let out = text;
  for (const [from, to] of ids) out = out.split(from).join(to);
  return out;
}

describe('cloudflare_ruleset from provider v4 and v5 state', () => {
  it('the v4 and v5 states of one zone, as .tfstate and as show -json, give the same manifest', () => {
    const manifests = files.map((f) => renderConvertedManifest(convertTerraform(parseTerraformState(read(f), f).resources), 'state'));
    for (const m of manifests) expect(m).toBe(manifests[1]);
    const data = parse(manifests[0]!) as { custom_rules: Record<string, unknown>; managed_rules: { ruleset?: string; ref?: string; skip?: unknown }[]; rate_limiting_rules: Record<string, unknown> };
    // Keys: the state's ref, else the description, else rule- and the id's first 8 characters.
    expect(Object.keys(data.custom_rules)).toEqual(['block-admin', 'office-skips-the-waf', 'rule-aaaaaaaa', 'watch-api']);
    // Exceptions in their places (an exception skips what comes after it): ref from the state's own, else the description.
    expect(data.managed_rules.map((m) => m.ruleset ?? `skip ${m.ref}`)).toEqual(['skip nightly-scan-of-the-app', 'managed', 'skip no-owasp-for-webhooks', 'owasp']);
    expect(data.managed_rules[0]).toEqual({
      ref: 'nightly-scan-of-the-app', skip: { rules: { managed: ['5f6744fa026a4638bda5b3d7d5e015dd'] } },
      expression: 'ip.src eq 203.0.113.50 and starts_with(http.request.uri.path, "/app/")', description: 'Nightly scan of the app', logging: { enabled: false },
    });
    // Rate limiting: v4's ratelimit block and v5's object alike, cf.colo.id left out (zonewall adds it), defaults left out.
    expect(data.rate_limiting_rules).toEqual({
      'login-burst': { action: 'block', expression: 'http.request.uri.path eq "/login"', description: 'Login bursts', ratelimit: { characteristics: ['ip.src'], period: 60, requests_per_period: 20, mitigation_timeout: 600 } },
      'api-per-key': {
        action: 'block', expression: 'starts_with(http.request.uri.path, "/api/")', description: 'API per key',
        action_parameters: { response: { content_type: 'application/json', content: '{"error":"rate limited"}' } },
        ratelimit: { characteristics: ['http.request.headers["x-api-key"]'], period: 10, requests_per_period: 10 },
      },
    });
    const lists = files.map((f) => renderAccountManifest(convertTerraform(parseTerraformState(read(f), f).resources).lists!, 'state'));
    for (const l of lists) expect(l).toBe(lists[1]);
    const account = parse(lists[0]!) as { account: string; lists: Record<string, { kind: string; items: unknown[] }> };
    expect(account.account).toBe(fixtureAccountId);
    expect(account.lists.bad_ips!.items).toHaveLength(31);
    expect(account.lists.bad_ips!.items.slice(0, 2)).toEqual([{ value: '203.0.113.1', comment: 'crawler' }, '203.0.113.2']);
    expect(account.lists.bad_ips!.items.at(-1)).toEqual({ value: '198.51.100.7', comment: 'scanner' });
    expect(data.managed_rules[2]).toEqual({ ref: 'no-owasp-for-webhooks', skip: { rulesets: ['owasp'] }, expression: 'starts_with(http.request.uri.path, "/webhooks/")' });
  });

  it('reports what it does not convert, with the true reason', () => {
    const ruleset = (address: string, attributes: Record<string, unknown>) => ({ address, type: 'cloudflare_ruleset', name: address, attributes: { zone_id: fixtureZoneId, ...attributes } });
    const c = convertTerraform([
      ruleset('managed', { phase: 'http_request_firewall_managed', rules: [
        { id: 'r1', action: 'skip', expression: 'http.host eq "a.test"', description: 'exception', action_parameters: { ruleset: 'current' } },
        { id: 'r2', action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } },
        { id: 'r5', action: 'skip', expression: 'true', action_parameters: { products: ['waf'] } },
        { id: 'r6', action: 'log', expression: 'true' },
      ] }),
      ruleset('transform', { phase: 'http_request_transform', rules: [] }),
      { address: 'account', type: 'cloudflare_ruleset', name: 'account', attributes: { account_id: 'a1', phase: 'http_request_firewall_custom', rules: [] } },
      ruleset('custom', { phase: 'http_request_firewall_custom', rules: [{ id: 'r3', action: 'redirect', expression: 'true' }, { id: 'r4', action: 'block', expression: 'true', description: 'all' }] }),
    ], undefined);
    const notes = c.notes.map((n) => `${n.severity} ${n.address}: ${n.message}`);
    expect(notes).toContainEqual(expect.stringMatching(/^warning managed: rule 3 \(skip\) skips no managed rules/));
    expect(notes).toContainEqual(expect.stringMatching(/^warning managed: rule 4 \(log\) is not an execute of a managed ruleset/));
    expect(notes.join('\n')).not.toContain('not converted yet');
    expect(notes).toContainEqual(expect.stringMatching(/^skipped transform: ruleset of phase http_request_transform: zonewall has no manifest section for this phase/));
    expect(notes).toContainEqual(expect.stringMatching(/^skipped account: account-level ruleset/));
    expect(notes).toContainEqual(expect.stringMatching(/^warning custom: custom rule r3: action redirect cannot be written in custom_rules: not converted/));
    expect(Object.keys(c.customRules!.rules)).toEqual(['all']);
    expect(c.managedRules!.entries).toEqual([{ ref: 'exception', skip: 'current', expression: 'http.host eq "a.test"', description: 'exception' }, { ruleset: 'managed' }]);
    expect(c.managedRules!.exceptions).toEqual([{ ref: 'exception', id: 'r1' }]);
  });

  for (const file of ['rulesets-v4.tfstate', 'rulesets-v5.show.json']) {
    it(`${file}: converts, adopts the live rules by id, and the next plan is empty`, { timeout: 240_000 }, async () => {
      const zone = `${file.replace(/[^a-z0-9]+/g, '-')}.test`;
      expect((await ws.run('engine', 'zone', 'create', zone, '--plan', 'enterprise', '--waf', 'new')).code).toBe(0);
      const ids = await buildZone(zone);
      const state = path.join(ws.dir, file);
      fs.writeFileSync(state, withLiveIds(read(file), ids));
      const dir = path.join(ws.dir, zone);
      fs.mkdirSync(dir);
      const manifest = path.join(dir, `${zone}.yaml`);

      const converted = await ws.run('migrate', manifest, '--from-terraform-state', state, '--zone', zone, '--write');
      expect(converted.code, converted.stderr).toBe(0);
      expect(converted.stdout).toMatch(/Adopted \d+ live object\(s\)/);
      expect(converted.stdout).toContain('as office-skips-the-waf');
      expect(converted.stdout).toMatch(/2 managed ruleset\(s\), 2 managed rules exception\(s\)/);
      expect(converted.stdout).toMatch(/managed rules exception \S+ as nightly-scan-of-the-app/);
      expect(converted.stdout).toContain('rate limiting rule');
      expect(converted.stdout).toMatch(/rate limiting rule \S+ as api-per-key/);
      expect(converted.stdout).toMatch(/4 custom rule\(s\), 2 rate limiting rule\(s\)/);
      // Lists: an account manifest beside the zone manifest, every item (not cf-terraforming's 25).
      expect(converted.stdout).toContain(`Wrote ${path.join(dir, 'account.yaml')} (the account's lists).`);
      expect(converted.stdout).toContain('1 list(s) with 31 item(s) (account manifest)');
      const account = parse(fs.readFileSync(path.join(dir, 'account.yaml'), 'utf8')) as { lists: { bad_ips: { items: unknown[] } } };
      expect(account.lists.bad_ips.items).toHaveLength(31);
      expect(converted.stdout).toContain(`'cloudflare_list.lists["bad_ips"]' 'cloudflare_list_item.bad["198.51.100.7"]'`);
      expect(converted.stdout).toContain(`terraform state rm 'cloudflare_ruleset.custom[0]' 'module.waf.cloudflare_ruleset.phase["managed"]' 'module.waf.cloudflare_ruleset.phase["ratelimit"]'`);
      expect(converted.stdout).not.toContain('manages only');

      const plan = await ws.run('plan', dir, '--detailed-exitcode');
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    });
  }
});
