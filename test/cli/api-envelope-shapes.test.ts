/**
 * A v4 API whose envelopes are not of the API's shapes: `errors` that is a string, one object, a list
 * with `null` in it, an `error_chain` that is not a list, a code without a message; `messages` that
 * is a string; a `result_info` that is null. They became `internal error: TypeError ...` (a crash
 * asking for a bug report) or an empty reason (`refused with HTTP 400: `). Now a refusal is one line
 * saying what the service said, exit 1, and a `result_info` that is null is read as nothing (a
 * `messages` of another shape: test/providers/v4-client.test.ts).
 * The real CLI talks to the real `zonewall serve` through the fault proxy, which replaces one answer
 * (a real server does not send these).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, startServe, tempDir, withEngine, writeManifest, zonewall, type Served } from '../helpers/e2e-cli.js';
import { FaultProxy } from '../providers/fault-proxy.js';

const Zones = ['envelopes.example.com', 'envelopes-2.example.com'];
let tmp: ReturnType<typeof tempDir>;
let served: Served;
let proxy: FaultProxy;
/** Two zones: their names are looked up in one list of the account's zones (paged, with result_info). */
let manifests: string;

beforeAll(async () => {
  requireBuild();
  tmp = tempDir('api-envelopes');
  const state = join(tmp.dir, 'state');
  await withEngine(state, async (engine) => { for (const zone of Zones) await engine.createZone(zone, { plan: 'enterprise' }); });
  served = await startServe(state);
  proxy = await FaultProxy.start(served.url);
  manifests = join(tmp.dir, 'zones');
  mkdirSync(manifests);
  for (const zone of Zones) writeManifest(manifests, `${zone}.yaml`, `zone: ${zone}\nplan: enterprise\ncustom_rules:\n  c:\n    action: block\n    expression: http.host eq "x"\n`);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await served?.stop();
  tmp?.cleanup();
});

const run = (args: string[]) => zonewall([...args, '--remote', proxy.url], { env: { ZONEWALL_API_TOKEN: served.token } });
const zones = '/client/v4/zones';
const refusal = (errors: unknown) => [400, { success: false, errors, messages: [], result: null }] as [number, object];

describe('an envelope of another shape', () => {
  const refusals: [string, unknown, string][] = [
    ['errors that is a string', 'zone lookup is down', 'zone lookup is down'],
    ['errors that is one object, not a list', { code: 1000, message: 'one error' }, 'one error (1000)'],
    ['errors with null in the list', [null, { code: 1001, message: 'the real one' }], 'the real one (1001)'],
    ['an error_chain that is not a list', [{ code: 7003, message: 'outer', error_chain: 'inner' }], 'outer (7003): inner'],
    ['an error with a code and no message', [{ code: 7003 }], 'error 7003'],
    ['an error whose message is an object', [{ code: 1002, message: { text: 'nested' } }], '{"text":"nested"} (1002)'],
    ['errors with nothing readable', [{}], 'no reason given'],
  ];
  for (const [name, errors, said] of refusals) {
    it(`${name}: one line with what the service said, exit 1`, async () => {
      proxy.on('GET', zones, refusal(errors));
      const out = await run(['plan', manifests]);
      expect(proxy.pending()).toEqual([]);
      expect(out.code).toBe(1);
      expect(out.stdout + out.stderr).not.toMatch(/internal error|TypeError|\n\s+at .+:\d+:\d+/);
      expect(out.stdout + out.stderr).toContain(`error: GET /zones refused with HTTP 400: ${said}\n`);
    }, 30_000);
  }

  it('a result_info that is null: the page says nothing of the pages, the plan goes on', async () => {
    proxy.on('GET', zones, async () => {
      const res = await fetch(`${served.url}/zones?page=1&per_page=50`, { headers: { authorization: `Bearer ${served.token}` } });
      return [200, { ...(await res.json() as object), result_info: null }];
    });
    const out = await run(['plan', manifests]);
    expect(proxy.pending()).toEqual([]);
    expect(out.stdout + out.stderr).not.toMatch(/internal error|TypeError/);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Total: Plan: 2 to add');
  }, 30_000);
});
