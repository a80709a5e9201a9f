/**
 * A run checks a zone's tier once: validating its manifest checks it on the manifest's `plan:`, and
 * planning it on the same tier (the live zone's, which wins) takes that answer instead of asking
 * every kind again. Another tier, or a known WAF state, is checked again: its answer may differ.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateManifestText } from '../../src/manifest/index.js';
import { firewallKind } from '../../src/manifest/firewall/index.js';
import { diffZone, type Plan } from '../../src/plan/index.js';
import { hex, live } from './fixtures.js';

const tierErrors = (p: Plan) => p.findings.filter((f) => f.code === 'tier').map((f) => f.message);
const text = ['zone: tier.example', 'plan: enterprise', 'firewall_rules:', '  audit:', '    action: log', '    filter: {expression: ssl}', ''].join('\n');
// `migration: null`: a plan that did not read the zone's WAF state (a manifest without previous-WAF or migration sections).
const zone = (plan: 'business' | 'enterprise') => ({ id: hex('zone'), name: 'tier.example', plan });

afterEach(() => { vi.restoreAllMocks(); });

describe('the tier check in one run', () => {
  it('runs once per zone when the live tier is the manifest\'s, and says the same', () => {
    const checks = vi.spyOn(firewallKind, 'checkTier');
    const desired = validateManifestText(text, 'zone.yaml').zone!;
    expect(checks).toHaveBeenCalledTimes(1);
    const plan = diffZone(desired, live({ zone: zone('enterprise'), migration: null }));
    expect(checks).toHaveBeenCalledTimes(1);
    expect(tierErrors(plan)).toEqual([]);
  });

  it('runs again on another tier (the live zone\'s wins), once, with that tier\'s findings', () => {
    const checks = vi.spyOn(firewallKind, 'checkTier');
    const desired = validateManifestText(text, 'zone.yaml').zone!;
    const business = 'firewall_rules.audit.action: log needs an Enterprise plan (the zone is on the business plan)';
    expect(tierErrors(diffZone(desired, live({ zone: zone('business'), migration: null })))).toEqual([business]);
    expect(checks).toHaveBeenCalledTimes(2);
    expect(tierErrors(diffZone(desired, live({ zone: zone('business'), migration: null })))).toEqual([business]);
    expect(checks).toHaveBeenCalledTimes(2);
  });

  it('runs again when the plan knows the zone\'s WAF state', () => {
    const checks = vi.spyOn(firewallKind, 'checkTier');
    const desired = validateManifestText(text, 'zone.yaml').zone!;
    diffZone(desired, live({ zone: zone('enterprise'), migration: { waf_state: 'new_only' } as never }));
    expect(checks).toHaveBeenCalledTimes(2);
  });
});
