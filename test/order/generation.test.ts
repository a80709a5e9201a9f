/**
 * Issue 32 item 6: the WAF generation a manifest means. A manifest with neither `previous_waf` nor
 * `waf_migration` means the new WAF: offline `zonewall test` runs it (a request without a
 * User-Agent does not meet `previous_waf.owasp.960009`), the embedded engine creates a missing zone
 * in it through `plan`/`apply`, offline and live verdicts agree, and `export` of a zone still on the
 * previous WAF says so (`waf_migration: none`). The stale saved plan refusal prints its code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StalePlanError } from '../../src/apply/index.js';
import { reportError } from '../../src/cli/error-boundary.js';
import { wafGenerationOf } from '../../src/manifest/index.js';
import { exportManifest } from '../../src/plan/export.js';
import { buildZoneModel, evaluateOffline } from '../../src/policy/index.js';
import { openEngineProvider, type EngineProvider } from '../../src/providers/engine/index.js';
import { desiredOf } from '../policy/fixtures.js';

const silent = `zone: new.example
plan: business
custom_rules:
  admin:
    action: block
    expression: starts_with(http.request.uri.path, "/admin")
`;
const noAgent = { host: 'new.example', path: '/', headers: {} };

describe('the generation a manifest means (issue 32 item 6)', () => {
  it('neither previous_waf nor waf_migration: the new WAF; either one says otherwise', () => {
    expect(wafGenerationOf(desiredOf(silent))).toBe('new');
    expect(wafGenerationOf(desiredOf(`${silent}waf_migration: none\n`))).toBe('previous');
    expect(wafGenerationOf(desiredOf(`${silent}previous_waf: {}\n`))).toBe('previous');
    const model = buildZoneModel(desiredOf(silent));
    expect(model.wafState).toBe('new_only');
    const v = evaluateOffline(model, noAgent);
    expect(v.matched.map((m) => m.name).filter((n) => n.startsWith('previous_waf.'))).toEqual([]);
    // Said outright, the previous WAF runs and scores the missing User-Agent.
    const previous = evaluateOffline(buildZoneModel(desiredOf(`${silent}waf_migration: none\n`)), noAgent);
    expect(previous.matched.map((m) => m.name)).toContain('previous_waf.owasp.960009');
  });

  it('prints ERR_STALE_PLAN in the refusal line', () => {
    let line = '';
    expect(reportError(new StalePlanError('zone x changed since the plan was saved'), (s) => { line += s; }, false)).toBe(1);
    expect(line).toMatch(/^error: .*ERR_STALE_PLAN/);
  });
});

describe('the embedded engine', () => {
  let dir: string;
  let provider: EngineProvider;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zw-generation-'));
    provider = await openEngineProvider({ stateDir: dir });
  });
  afterAll(async () => {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a zone created --waf new agrees with the offline verdicts of a manifest that says nothing', async () => {
    const zone = await provider.engine.createZone('new.example', { plan: 'business', waf: 'new' });
    const put = await provider.engine.dispatch({
      method: 'PUT', path: `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      body: { rules: [{ ref: 'admin', action: 'block', expression: 'starts_with(http.request.uri.path, "/admin")' }] },
    });
    expect(put.body.success).toBe(true);
    const model = buildZoneModel(desiredOf(silent));
    for (const request of [noAgent, { ...noAgent, path: '/admin' }, { ...noAgent, headers: { 'User-Agent': 'sqlmap/1.7' } }]) {
      const live = (await provider.engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/trace`, body: request })).body.result as { action: string | null; decided_by: string | null };
      const offline = evaluateOffline(model, request);
      expect([offline.action, offline.decided_by]).toEqual([live.action, live.decided_by]);
    }
  });

  it('export writes waf_migration: none for a zone on the previous WAF, nothing for a migrated one', async () => {
    const old = await provider.engine.createZone('old.example', { plan: 'free' });
    expect(exportManifest(await provider.readZone(old.id)).document.waf_migration).toBe('none');
    const fresh = await provider.engine.createZone('fresh.example', { plan: 'free', waf: 'new' });
    expect(exportManifest(await provider.readZone(fresh.id)).document.waf_migration).toBeUndefined();
  });

  it('plan/apply creates a missing zone in the generation the manifest means', async () => {
    const desired = desiredOf(silent.replace('new.example', 'made.example'));
    const { zone } = await provider.resolveZone(desired.zone, { create: { plan: 'business', waf: wafGenerationOf(desired) } });
    await provider.bookmark(zone.id);
    const live = await provider.readZone(zone.id);
    expect(live.migration?.waf_state).toBe('new_only');
  });
});
