import { describe, expect, it } from 'vitest';
import {
  catalogFromLive,
  groupCategory,
  mapActionMode,
  mapOwaspPackage,
  mapPreviousWaf,
  mapVendorRuleMode,
  withLiveSettings,
} from '../../src/migrate/mapping.js';
import { PreviousWafPackageIds } from '../../src/migrate/constants.js';
import type { LivePreviousWaf } from '../../src/plan/index.js';

const OWASP = PreviousWafPackageIds.owasp;
const CF = PreviousWafPackageIds.cloudflare;

const live: LivePreviousWaf = {
  packages: [
    { id: CF, name: 'CloudFlare', detection_mode: 'traditional' },
    { id: OWASP, name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly', sensitivity: 'low', action_mode: 'block' },
  ],
  groups: [
    { id: 'c956a7bf4225adc26448b0badc12f17a', name: 'Cloudflare WordPress', mode: 'on', package_id: CF },
    { id: '07d700cf30fda7548be94ff01087d0c4', name: 'OWASP Bad Robots', mode: 'on', package_id: OWASP },
  ],
  rules: [
    { id: '100532', description: 'Vulnerability scanner activity', group: { id: 'g', name: 'Cloudflare Specials' }, package_id: CF, mode: 'default', allowed_modes: ['default', 'disable', 'simulate', 'block', 'challenge'], default_mode: 'challenge' },
    { id: '990012', description: 'Rogue web site crawler', group: { id: '07d700cf30fda7548be94ff01087d0c4', name: 'OWASP Bad Robots' }, package_id: OWASP, mode: 'on', allowed_modes: ['on', 'off'] },
  ],
  overrides: [],
};

describe('the seed\'s OWASP table', () => {
  // One row per line of the seed's table, plus off.
  it.each([
    [{ sensitivity: 'high' as const }, 'high', 2, 40],
    [{ sensitivity: 'medium' as const }, 'medium', 1, 25],
    [{ sensitivity: 'low' as const }, 'low', 1, 40],
    [undefined, 'default', 2, 40],
    [{ action_mode: 'block' as const }, 'default', 2, 40],
  ])('%j is the %s row: PL%i, threshold %i', (settings, row, pl, threshold) => {
    const m = mapOwaspPackage(settings);
    expect(m.row).toBe(row);
    expect(m.deployed).toBe(true);
    expect(m.paranoiaLevel).toBe(pl);
    expect(m.scoreThreshold).toBe(threshold);
  });

  it('turns sensitivity off into an OWASP ruleset that does not run', () => {
    expect(mapOwaspPackage({ sensitivity: 'off' })).toMatchObject({ row: 'off', deployed: false });
  });

  it('maps simulate to log and block and challenge directly; the default action is challenge', () => {
    expect(mapActionMode('simulate')).toBe('log');
    expect(mapActionMode('block')).toBe('block');
    expect(mapActionMode('challenge')).toBe('challenge');
    expect(mapOwaspPackage(undefined).action).toBe('challenge');
    expect(mapOwaspPackage({ action_mode: 'simulate' }).action).toBe('log');
  });
});

describe('vendor rule modes', () => {
  it.each([
    ['disable', { enabled: false }],
    ['off', { enabled: false }],
    ['on', { enabled: true }],
    ['simulate', { action: 'log', enabled: true }],
    ['block', { action: 'block', enabled: true }],
    ['challenge', { action: 'challenge', enabled: true }],
  ])('%s becomes %j', (mode, behaviour) => {
    expect(mapVendorRuleMode(mode)).toEqual(behaviour);
  });

  it('leaves default to be resolved through the rule\'s default mode', () => {
    expect(mapVendorRuleMode('default')).toBeUndefined();
  });

  it('names the category of a vendor group after the group', () => {
    expect(groupCategory('Cloudflare WordPress')).toBe('wordpress');
    expect(groupCategory('Cloudflare Php')).toBe('php');
    expect(groupCategory(undefined)).toBeUndefined();
  });
});

describe('mapPreviousWaf', () => {
  const catalog = catalogFromLive(live);

  it('lists OWASP group and rule overrides as to be recreated by hand', () => {
    const m = mapPreviousWaf({ packages: {}, groups: { '07d700cf30fda7548be94ff01087d0c4': 'off' }, rules: { '990012': 'off' } }, catalog);
    expect(m.manual.map((i) => [i.kind, i.id, i.name])).toEqual([
      ['owasp-group', '07d700cf30fda7548be94ff01087d0c4', 'OWASP Bad Robots'],
      ['owasp-rule', '990012', 'Rogue web site crawler'],
    ]);
    expect(m.manual[0].advice).toMatch(/cannot migrate automatically/);
  });

  it('resolves a vendor rule in mode default through its default mode, and pairs it with its successor', () => {
    const m = mapPreviousWaf({ packages: {}, groups: {}, rules: { '100532': 'default' } }, catalog);
    expect(m.vendorRules).toEqual([{
      legacyId: '100532', mode: 'default', effectiveMode: 'challenge',
      successor: { id: '0242110ae62e44028a13bf4834780914', action: 'block', enabled: true },
      expected: { action: 'challenge', enabled: true },
    }]);
  });

  it('maps vendor groups to categories by name', () => {
    const m = mapPreviousWaf({ packages: {}, groups: { c956a7bf4225adc26448b0badc12f17a: 'off' }, rules: {} }, catalog);
    expect(m.vendorGroups).toEqual([{ groupId: 'c956a7bf4225adc26448b0badc12f17a', mode: 'off', name: 'Cloudflare WordPress', category: 'wordpress' }]);
  });

  it('finds the OWASP package by its detection mode, under any id', () => {
    const custom = catalogFromLive({ ...live, packages: [{ id: 'a'.repeat(32), name: 'x', detection_mode: 'anomaly' }] });
    const m = mapPreviousWaf({ packages: { ['a'.repeat(32)]: { sensitivity: 'medium' } }, groups: {}, rules: {} }, custom);
    expect(m.owasp.row).toBe('medium');
  });

  it('classifies ids without a live zone by the known package ids and the CRS 2.x pattern', () => {
    const offline = catalogFromLive(null);
    expect(offline.packageKind(OWASP)).toBe('owasp');
    expect(offline.ruleKind('981176')).toBe('owasp');
    expect(offline.ruleKind('100514')).toBe('vendor');
    expect(offline.ruleKind('WP0025B')).toBe('unknown');
  });
});

describe('withLiveSettings', () => {
  it('fills what the manifest leaves out from the live package, the manifest winning', () => {
    const s = withLiveSettings({ packages: { [OWASP]: { action_mode: 'simulate' } }, groups: { g: 'off' }, rules: {} }, live);
    expect(s.packages[OWASP]).toEqual({ sensitivity: 'low', action_mode: 'simulate' });
    expect(s.groups).toEqual({ g: 'off' });
  });

  it('uses only the live packages without a manifest section', () => {
    expect(withLiveSettings(undefined, live).packages).toEqual({ [OWASP]: { sensitivity: 'low', action_mode: 'block' } });
  });
});
