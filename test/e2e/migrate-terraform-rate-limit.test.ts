/**
 * `migrate --from-terraform-state` on `cloudflare_rate_limit` resources (the previous rate limiting
 * API, test/fixtures/terraform/rate-limit-v{4,5}.tfstate) with the real CLI: it writes
 * `rate_limiting_rules` as the service upgraded such rules, prints a report row per rule and the
 * `terraform state rm` steps; the written manifest then plans, applies on the embedded engine, and
 * plans clean.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { workspace } from '../migrate/cli.js';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'terraform');
const ws = workspace('tf-rate-limit', (r, what) => expect(r.code, what).toBe(0));
afterAll(() => ws.remove());

describe('cloudflare_rate_limit from a Terraform state, through the CLI', () => {
  for (const file of ['rate-limit-v4.tfstate', 'rate-limit-v5.tfstate']) {
    it(`${file}: writes rate_limiting_rules, reports each rule and the state rm steps; the manifest applies and plans clean`, { timeout: 240_000 }, async () => {
      const zone = `${file.replace(/[^a-z0-9]+/g, '-')}.test`;
      await ws.ok('engine', 'zone', 'create', zone, '--plan', 'enterprise', '--waf', 'new');
      const dir = path.join(ws.dir, zone);
      fs.mkdirSync(dir);
      const manifest = path.join(dir, `${zone}.yaml`);

      const converted = await ws.run('migrate', manifest, '--from-terraform-state', path.join(fixtures, file), '--zone', 'tf-ratelimit.test', '--write');
      expect(converted.code, converted.stdout + converted.stderr).toBe(0);
      // A report row per rule, saying what the upgrade changed.
      expect(converted.stdout).toMatch(/cloudflare_rate_limit\.login.*previous rate limit converted to rate_limiting_rules\.login-attempts as the service upgraded it: action ban -> block, period 50 s -> 45 s, timeout 500 s -> 600 s/);
      expect(converted.stdout).toMatch(/cloudflare_rate_limit\.api\["v1"\].*previous rate limit converted to rate_limiting_rules\.\S+ as the service upgraded it: action simulate -> log/);
      expect(converted.stdout).toContain(`terraform state rm 'cloudflare_rate_limit.api["v1"]' cloudflare_rate_limit.login`);
      const written = parse(fs.readFileSync(manifest, 'utf8')) as { zone: string; rate_limiting_rules: Record<string, { action: string; expression: string; ratelimit: Record<string, unknown> }> };
      const rules = Object.values(written.rate_limiting_rules);
      expect(rules.map((r) => r.action).sort()).toEqual(['block', 'log']);
      expect(written.rate_limiting_rules['login-attempts']).toMatchObject({
        expression: 'http.request.full_uri wildcard "*://tf-ratelimit.test/login*" and http.request.method in {"POST"} and not http.request.full_uri wildcard "*://tf-ratelimit.test/login/health"',
        ratelimit: { characteristics: ['ip.src'], period: 45, requests_per_period: 5, mitigation_timeout: 600, counting_expression: 'http.response.code in {401 403}', requests_to_origin: true },
      });
      expect(rules.find((r) => r.action === 'log')!.ratelimit).toMatchObject({ characteristics: ['cf.unique_visitor_id'], period: 60, requests_per_period: 100 });

      // The manifest names the state's zone: point it at the engine's, then plan, apply, plan clean.
      fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace(/^zone: .*$/m, `zone: ${zone}`));
      const plan = await ws.run('plan', manifest, '--detailed-exitcode');
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      expect(plan.stdout).toContain('+ rate_limiting_rule "login-attempts"');
      await ws.ok('apply', manifest, '--auto-approve');
      const clean = await ws.run('plan', manifest, '--detailed-exitcode');
      expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    });
  }
});
