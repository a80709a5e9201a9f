/**
 * `migrate firewall-terraform`'s proof resolves `$name` to the state's own `cloudflare_list`
 * resources: it ran without them, so a rule on a list matched nothing before and after, and its
 * conversion went unproved (the list's members were never tried).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { firewallTerraform } from '../../../src/cli/commands/migrate-firewall-terraform.js';

const zone_id = '023e105f4ecef8ad9ca31a8372d0c353';
const resource = (type: string, name: string, attributes: Record<string, unknown>) => ({
  mode: 'managed', type, name, provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]', instances: [{ schema_version: 0, attributes }],
});

function state(withList: boolean): string {
  return JSON.stringify({ version: 4, terraform_version: '1.9.0', serial: 1, lineage: 'l', outputs: {}, resources: [
    resource('cloudflare_filter', 'office', { id: 'f1', zone_id, expression: 'ip.src in $office', description: '', paused: false, ref: '' }),
    resource('cloudflare_filter', 'admin', { id: 'f2', zone_id, expression: 'http.request.uri.path eq "/admin"', description: '', paused: false, ref: '' }),
    resource('cloudflare_firewall_rule', 'office', { id: 'r1', zone_id, filter_id: 'f1', action: 'allow', priority: 1, description: 'office', paused: false }),
    resource('cloudflare_firewall_rule', 'admin', { id: 'r2', zone_id, filter_id: 'f2', action: 'block', priority: 2, description: 'admin', paused: false }),
    ...(withList ? [resource('cloudflare_list', 'office', { id: 'l1', account_id: 'acct', name: 'office', kind: 'ip', item: [{ value: [{ ip: '198.51.100.7' }] }, { value: [{ ip: '10.1.0.0/16' }] }] })] : []),
  ] });
}

let dir: string | undefined;
afterEach(() => { vi.restoreAllMocks(); if (dir !== undefined) rmSync(dir, { recursive: true, force: true }); });

async function proofLine(withList: boolean): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'zw-tf-lists-'));
  const file = join(dir, `state-${withList}.tfstate`);
  writeFileSync(file, state(withList));
  const err: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { err.push(String(chunk)); return true; });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  expect(await firewallTerraform(file, {})).toBe(0);
  return err.join('').split('\n').find((l) => l.startsWith('Equivalence proof:')) ?? err.join('');
}

describe('migrate firewall-terraform with a list in the state', () => {
  it('tries the list\'s members in the proof', async () => {
    const without = await proofLine(false);
    const withList = await proofLine(true);
    const generated = (line: string) => Number(/\+ (\d+) request\(s\) generated/.exec(line)?.[1]);
    expect(withList).toContain('every verdict is the same');
    expect(generated(withList)).toBeGreaterThan(generated(without));
  });
});
