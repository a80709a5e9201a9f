/**
 * The account manifest's quotas follow the live account's plan when the service says it (the
 * engine's `plan_tier`; `type: enterprise` on any v4 service): a business account's hostname list
 * is a manifest error at its place at `plan` and `apply`, before anything is written. It was
 * checked with the manifest's `plan:` (default enterprise) only: the plan said "1 to add" and apply
 * failed half-way with the service's 10309.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('lists-account-plan');
});
afterAll(() => tmp.cleanup());

describe('the live account\'s plan wins over the account manifest\'s plan:', () => {
  it('a hostname list of a business account is refused at plan and apply with its position; nothing is written', { timeout: 300_000 }, async () => {
    const state = ['--state-dir', join(tmp.dir, 'state')];
    expect((await zonewall(['engine', 'account', 'create', 'biz', '--plan', 'business', ...state])).code).toBe(0);
    const dir = join(tmp.dir, 'm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'account.yaml'), ['account: biz', 'lists:', '  office:', '    kind: ip', '    items: [192.0.2.1]', '  hosts:', '    kind: hostname', '    items: [app.example.com]', ''].join('\n'));
    const where = `${join(dir, 'account.yaml')}:7:11: lists.hosts.kind: hostname lists need the enterprise plan (the account is on business)`;
    const plan = await zonewall(['plan', dir, ...state]);
    expect(plan.stderr).toContain(where);
    expect(plan.code).toBe(1);
    const apply = await zonewall(['apply', dir, '--auto-approve', ...state]);
    expect(apply.stderr).toContain(where);
    expect(apply.code).toBe(1);
    const exported = await zonewall(['export', '--account', 'biz', ...state]);
    expect(exported.stdout).toMatch(/lists: \{\}/);

    // A zone of the account using a managed list ($cf.*, enterprise accounts only) is refused at the $name too.
    writeFileSync(join(dir, 'account.yaml'), ['account: biz', 'lists:', '  office:', '    kind: ip', '    items: [192.0.2.1]', ''].join('\n'));
    expect((await zonewall(['engine', 'zone', 'create', 'biz.example.com', '--plan', 'business', '--account', 'biz', ...state])).code).toBe(0);
    writeFileSync(join(dir, 'biz.example.com.yaml'), ['zone: biz.example.com', 'plan: business', 'custom_rules:', '  proxies:', '    action: block', '    expression: ip.src in $cf.open_proxies', ''].join('\n'));
    const managed = await zonewall(['plan', dir, ...state]);
    expect(managed.stderr).toMatch(/biz\.example\.com\.yaml:6:27: custom_rules\.proxies\.expression: unknown list \$cf\.open_proxies/);
    expect(managed.code).toBe(1);
    writeFileSync(join(dir, 'biz.example.com.yaml'), ['zone: biz.example.com', 'plan: business', 'custom_rules:', '  office:', '    action: block', '    expression: ip.src in $office', ''].join('\n'));

    // Within the plan's quotas, it plans and applies.
    writeFileSync(join(dir, 'account.yaml'), ['account: biz', 'lists:', '  office:', '    kind: ip', '    items: [192.0.2.1]', ''].join('\n'));
    expect((await zonewall(['apply', dir, '--auto-approve', ...state])).code).toBe(0);
    expect((await zonewall(['plan', dir, '--detailed-exitcode', ...state])).code).toBe(0);
  });
});
