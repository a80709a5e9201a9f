/**
 * One convention for every `--json` document the CLI prints (README "JSON output"): snake_case
 * field names, `kind: "zonewall.<what>"` and `format_version` as a `MAJOR.MINOR` string; the
 * engine's zone commands print the v4 API's own objects (snake_case, no version).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'zw-json-docs-'));
  cpSync('examples/upgrade', join(dir, 'upgrade'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function json(...args: string[]): Promise<unknown> {
  let out = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await main(['node', 'zonewall', ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
    process.exitCode = undefined;
  }
  return JSON.parse(out) as unknown;
}

/** Every field name in a JSON value, with where it is. */
function fieldNames(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => fieldNames(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${at}.${k}`, ...fieldNames(v, `${at}.${k}`)]);
}

const camel = (names: string[]) => names.filter((n) => /[A-Z]/.test(n.split('.').pop()!));

describe('--json documents', () => {
  const state = () => join(dir, 'state');
  // In order: apply creates the zone that migrate status reads.
  const documents: [string, string, () => string[]][] = [
    ['validate', 'validate', () => ['validate', '--json', 'examples/quickstart.yaml']],
    ['plan', 'plan', () => ['plan', '--json', 'examples/quickstart.yaml', '--state-dir', state()]],
    ['apply', 'apply', () => ['apply', '--json', '--auto-approve', 'examples/quickstart.yaml', '--state-dir', state()]],
    ['test', 'test', () => ['test', '--json', 'examples/quickstart.yaml']],
    ['migration-status', 'migrate status', () => ['migrate', 'status', '--json', '--zone', 'quickstart.example.com', '--state-dir', state()]],
    ['firewall-upgrade', 'migrate firewall-rules', () => ['migrate', 'firewall-rules', '--json', join(dir, 'upgrade', 'zone.yaml')]],
  ];
  for (const [kind, command, args] of documents) {
    it(`${command} --json: snake_case, kind zonewall.${kind}, format_version "MAJOR.MINOR"`, async () => {
      const doc = await json(...args()) as { kind?: unknown; format_version?: unknown };
      expect(doc.kind).toBe(`zonewall.${kind}`);
      expect(doc.format_version).toMatch(/^\d+\.\d+$/);
      expect(camel(fieldNames(doc))).toEqual([]);
    });
  }

  it('engine zone list --json: the v4 zone objects, snake_case', async () => {
    const zones = await json('engine', 'zone', 'list', '--json', '--state-dir', state());
    expect(Array.isArray(zones)).toBe(true);
    expect(camel(fieldNames(zones))).toEqual([]);
  });
});
