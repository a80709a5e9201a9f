/**
 * Managed-rules exceptions end to end with the built CLI (issue 28): a Business zone whose firewall
 * rule bypasses `waf` for an office network is migrated with `migrate --mode pending --force
 * --write`; the rewritten manifest holds the migration's skip rule as an exception, so offline
 * `zonewall test`, `--against-zone`, `plan --detailed-exitcode` and an `export` round trip agree:
 * the office's Log4j probe reaches the origin, the same probe from elsewhere is still blocked by the
 * managed rule, and the test output says which exception skipped which managed rule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { zonewall } from '../migrate/cli.js';

/** Several CLI runs per test on a busy two-core box. */
const CliTimeout = 300_000;
/** Cloudflare Managed Ruleset rule "Log4j Headers". */
const Log4jHeaders = '5f6744fa026a4638bda5b3d7d5e015dd';

let dir: string;
let stateDir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-e2e-exceptions-'));
  stateDir = path.join(dir, 'state');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => zonewall([...args, '--state-dir', stateDir], { cwd: dir });
const ok = (r: { code: number; stdout: string; stderr: string }) => expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);

const manifest = `zone: biz.test
plan: business
previous_waf:
  packages:
    owasp: { sensitivity: medium, action_mode: block }
firewall_rules:
  office-no-waf:
    description: The office network skips the WAF
    action: bypass
    products: [waf]
    filter:
      expression: ip.src in {198.51.100.0/24}
`;

describe('migrate --write writes the skip rule as an exception, and every tool agrees', () => {
  it('offline test, --against-zone, an empty plan and an export round trip', { timeout: CliTimeout }, async () => {
    ok(await run('engine', 'zone', 'create', 'biz.test', '--plan', 'business'));
    const file = path.join(dir, 'biz.yaml');
    fs.writeFileSync(file, manifest);
    ok(await run('apply', file, '--auto-approve'));
    ok(await run('migrate', file, '--mode', 'pending', '--force', '--write'));

    const items = parse(fs.readFileSync(file, 'utf8')).managed_rules as { ref: string; ruleset?: string; skip?: unknown; expression?: string }[];
    const exception = items[0]!;
    expect(exception).toMatchObject({ skip: 'current', expression: 'ip.src in {198.51.100.0/24}' });
    const managedRef = items.find((i) => i.ruleset === 'managed')!.ref;
    fs.writeFileSync(path.join(dir, 'biz.tests.yaml'), `zone: biz.test
cases:
  - name: the office's Log4j probe reaches the origin
    request: { ip: 198.51.100.7, headers: { X-Api-Version: "\${jndi:ldap://x}" } }
    expect: { allowed: true, matched: managed_rules.${exception.ref} }
  - name: the same probe from elsewhere is still blocked by the managed rule
    request: { ip: 203.0.113.9, headers: { X-Api-Version: "\${jndi:ldap://x}" } }
    expect: { action: block, matched: managed_rules.${managedRef}.${Log4jHeaders} }
`);
    const offline = await run('test', file);
    ok(offline);
    expect(offline.stdout).toContain(`managed_rules.${exception.ref} (skip): exception: skipped managed_rules.${managedRef}.${Log4jHeaders} (Log4j Headers)`);
    ok(await run('test', file, '--against-zone'));
    ok(await run('plan', file, '--detailed-exitcode'));

    const exported = path.join(dir, 'exported.yaml');
    const exp = await run('export', '--zone', 'biz.test', '--out', exported);
    ok(exp);
    expect(exp.stdout + exp.stderr).toContain('1 managed-rules exception(s)');
    expect(parse(fs.readFileSync(exported, 'utf8')).managed_rules[0]).toMatchObject({ ref: exception.ref, skip: 'current' });
    ok(await run('plan', exported, '--detailed-exitcode'));
    ok(await run('test', exported, '--cases', path.join(dir, 'biz.tests.yaml')));
  });
});
