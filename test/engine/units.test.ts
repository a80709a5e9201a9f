/**
 * Unit tables for the engine's small parts: the router, credential loading, plan limits, zone
 * names and pagination parameters.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DefaultPlanLimits, Engine, loadCredentials, loadPlanLimitsFile, resolvePlanLimits } from '../../src/engine/index.js';
import { parsePageRequest } from '../../src/engine/envelope.js';
import { Router, splitPath } from '../../src/engine/router.js';
import { normalizeZoneName } from '../../src/engine/zones/names.js';

const tmp = mkdtempSync(join(tmpdir(), 'zw-engine-units-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('router', () => {
  const router = new Router([
    { method: 'GET' as const, pattern: '/zones/:zone_id/filters' },
    { method: 'POST' as const, pattern: '/zones/:zone_id/filters' },
    { method: 'GET' as const, pattern: '/zones/:zone_id/filters/:filter_id' },
  ]);
  it.each([
    ['GET', '/zones/z1/filters', { kind: 'found', params: { zone_id: 'z1' } }],
    ['GET', '/zones/z1/filters/', { kind: 'found', params: { zone_id: 'z1' } }],
    ['GET', '/zones/z1/filters/f%201', { kind: 'found', params: { zone_id: 'z1', filter_id: 'f 1' } }],
    ['DELETE', '/zones/z1/filters', { kind: 'method', allowed: ['GET', 'POST'] }],
    ['GET', '/zones/z1/rules', { kind: 'none' }],
    ['GET', '/zones/%E0%A4%A/filters', { kind: 'none' }],
  ])('%s %s', (method, path, expected) => {
    expect(router.match(method, path)).toMatchObject(expected);
  });

  it.each([
    ['', undefined],
    ['zones', undefined],
    ['/', []],
    ['//', []],
    ['/zones', ['zones']],
    ['/zones/', ['zones']],
    ['/zones//', ['zones', '']],
    ['//zones', ['', 'zones']],
    ['/zones/z1/filters/%2e%2e/', ['zones', 'z1', 'filters', '..']],
    ['/zones/a%2Fb', ['zones', 'a/b']],
    ['/zones/%E0%A4%A', undefined],
  ])('splitPath(%j)', (path, expected) => {
    expect(splitPath(path)).toEqual(expected);
  });
});

describe('the front keeps router answers by path', () => {
  it('matches a path once, answers its repeats the same (found, wrong method, unknown), and each id apart', async () => {
    const dir = mkdtempSync(join(tmp, 'front-'));
    const engine = await Engine.open({ dir });
    const match = vi.spyOn(Router.prototype, 'match');
    try {
      const zone = (await engine.createZone('front.example')).id;
      const rules = `/zones/${zone}/firewall/rules`;
      match.mockClear();
      for (let i = 0; i < 3; i++) expect((await engine.respond({ method: 'GET', path: rules })).status).toBe(200);
      expect(match).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 2; i++) {
        const wrong = await engine.respond({ method: 'PATCH', path: '/zones' });
        expect(wrong.status).toBe(405);
        expect(wrong.headers?.allow).toContain('GET');
        expect((await engine.respond({ method: 'GET', path: `/zones/${zone}/nothing` })).status).toBe(404);
      }
      expect(match).toHaveBeenCalledTimes(3);
      const one = await engine.respond({ method: 'GET', path: `${rules}/${'a'.repeat(32)}` });
      const other = await engine.respond({ method: 'GET', path: `${rules}/${'b'.repeat(32)}` });
      expect([one.status, other.status]).toEqual([404, 404]);
      expect(JSON.stringify(other.body)).toContain('b'.repeat(32));
      expect(match).toHaveBeenCalledTimes(5);
    } finally {
      match.mockRestore();
      await engine.close();
    }
  });
});

describe('credentials', () => {
  it('reads the environment: token and key pair for every zone', () => {
    const creds = loadCredentials({ ZONEWALL_SERVE_TOKEN: 'tok-12345678', ZONEWALL_SERVE_AUTH_EMAIL: 'a@b.example', ZONEWALL_SERVE_AUTH_KEY: 'key-12345678' });
    expect(creds).toEqual([
      { type: 'token', token: 'tok-12345678', zones: '*' },
      { type: 'key', email: 'a@b.example', key: 'key-12345678', zones: '*' },
    ]);
    expect(loadCredentials({})).toEqual([]);
  });

  it('refuses half a key pair without printing the secret', () => {
    expect(() => loadCredentials({ ZONEWALL_SERVE_AUTH_KEY: 'secret-value-1' })).toThrow(/set both or neither/);
    try {
      loadCredentials({ ZONEWALL_SERVE_TOKEN: 'short' });
    } catch (err) {
      expect((err as Error).message).not.toContain('short');
    }
  });

  it('reads a file with zone scopes and names bad entries', () => {
    const file = join(tmp, 'creds.json');
    writeFileSync(file, JSON.stringify({ credentials: [{ token: 'tok-abcdefgh', zones: ['Example.com'] }, { email: 'x@y.example', key: 'key-abcdefgh', zones: '*' }] }));
    expect(loadCredentials({}, file)).toEqual([
      { type: 'token', token: 'tok-abcdefgh', zones: ['example.com'] },
      { type: 'key', email: 'x@y.example', key: 'key-abcdefgh', zones: '*' },
    ]);
    writeFileSync(file, JSON.stringify([{ token: 'tok-abcdefgh' }]));
    expect(() => loadCredentials({}, file)).toThrow(/credentials\[0\]\.zones is required/);
    expect(() => loadCredentials({}, join(tmp, 'missing.json'))).toThrow(/cannot read the credentials file/);
  });

  it('says where a malformed credentials file is broken without echoing any of its content', () => {
    const file = join(tmp, 'bad.json');
    for (const text of ['{"credentials": [{"token": sk-live-SECRET-abcdef123, "zones": "*"}]}', '{"token": "sk-live-SECRET-abc', 'sk-live-SECRET-abcdef']) {
      writeFileSync(file, text);
      let message = '';
      try { loadCredentials({}, file); } catch (err) { message = (err as Error).message; }
      expect(message).toMatch(/is not valid JSON/);
      expect(message).not.toMatch(/SECRET|sk-live|abcdef/);
    }
    writeFileSync(file, '');
    expect(() => loadCredentials({}, file)).toThrow(/the file is empty/);
  });

  // The engine's reader accepted these (JSON keeps the last of a repeated key; the same token in two
  // entries); only the CLI refused them, after reading the file a second time. The one reader refuses
  // them for every caller, at the repeat, without the secret.
  it('refuses a key written twice, a credential in two entries, and the environment\'s credential again, located', () => {
    const file = join(tmp, 'repeats.json');
    const token = 'tok-SECRET-abcdefgh';
    const refused = (text: string, env: NodeJS.ProcessEnv = {}): string => {
      writeFileSync(file, text);
      try { loadCredentials(env, file); } catch (err) { return (err as Error).message; }
      return 'accepted';
    };
    expect(refused(`{"credentials": [\n  {"token": "${token}",\n   "zones": ["a.example"],\n   "zones": ["b.example"]}\n]}`))
      .toBe(`${file}:4:4: credentials[0] has "zones" twice (JSON keeps only the last, silently): keep one`);
    expect(refused(`[{"token": "${token}", "zones": "*", "\\u007aones": "*"}]`))
      .toBe(`${file}:1:49: credentials[0] has "zones" twice (JSON keeps only the last, silently): keep one`);
    expect(refused(`{"credentials": [],\n "credentials": [{"token": "${token}", "zones": "*"}]}`))
      .toBe(`${file}:2:2: the top-level object has "credentials" twice (JSON keeps only the last, silently): keep one`);
    expect(refused(`[\n  {"token": "${token}", "zones": ["a.example"]},\n  {"token": "${token}", "zones": ["b.example"]}\n]`))
      .toBe(`${file}:3:3: credentials[1] repeats the token of credentials[0] (line 2; the value is not shown): one entry per credential; put all its zones in that entry's "zones"`);
    expect(refused(`{"credentials": [{"email": "a@b.example", "key": "${token}", "zones": ["a.example"]}]}`, { ZONEWALL_SERVE_AUTH_EMAIL: 'a@b.example', ZONEWALL_SERVE_AUTH_KEY: token }))
      .toBe(`${file}:1:18: credentials[0] repeats the key pair of ZONEWALL_SERVE_AUTH_EMAIL and ZONEWALL_SERVE_AUTH_KEY, which already has every zone (the value is not shown): remove the entry or unset the variables`);
    // The same zones key in two entries, and a token equal to another entry's key, are no repeats.
    expect(refused(`[{"token": "${token}", "zones": "*"}, {"email": "a@b.example", "key": "${token}", "zones": "*"}]`)).toBe('accepted');
  });
});

describe('plan limits', () => {
  it('defaults to the real figures and merges overrides field by field', () => {
    expect(DefaultPlanLimits.free).toEqual({ firewall_rules: 5, log: false, matches: false, custom_rules: 5, custom_response: false });
    expect(DefaultPlanLimits.enterprise).toEqual({ firewall_rules: 1000, log: true, matches: true, custom_rules: 1000, custom_response: true });
    const limits = resolvePlanLimits({ pro: { matches: true } });
    expect(limits.pro).toEqual({ firewall_rules: 20, log: false, matches: true, custom_rules: 20, custom_response: true });
    expect(limits.business.firewall_rules).toBe(100);
  });

  it('validates a limits file', () => {
    const file = join(tmp, 'limits.json');
    writeFileSync(file, JSON.stringify({ free: { firewall_rules: 2 } }));
    expect(loadPlanLimitsFile(file)).toEqual({ free: { firewall_rules: 2 } });
    writeFileSync(file, JSON.stringify({ gold: {} }));
    expect(() => loadPlanLimitsFile(file)).toThrow(/unknown plan tier "gold"/);
    writeFileSync(file, JSON.stringify({ free: { firewall_rules: -1 } }));
    expect(() => loadPlanLimitsFile(file)).toThrow(/free.firewall_rules must be a non-negative integer/);
    writeFileSync(file, JSON.stringify({ pro: { custom_rules: 1.5 } }));
    expect(() => loadPlanLimitsFile(file)).toThrow(/pro.custom_rules must be a non-negative integer/);
    writeFileSync(file, JSON.stringify({ pro: { custom_response: 'yes' } }));
    expect(() => loadPlanLimitsFile(file)).toThrow(/pro.custom_response must be true or false/);
  });

  it('a limits file with a key written twice: refused at the repeat (JSON would keep the last, silently)', () => {
    const file = join(tmp, 'limits-twice.json');
    writeFileSync(file, '{\n  "free": {"firewall_rules": 10},\n  "free": {"log": true}\n}\n');
    expect(() => loadPlanLimitsFile(file)).toThrow(`${file}:3:3: the top-level object has "free" twice (JSON keeps only the last, silently): keep one`);
    writeFileSync(file, '{"pro": {"custom_rules": 50,\n  "custom_rules": 5}}');
    expect(() => loadPlanLimitsFile(file)).toThrow(`${file}:2:3: pro has "custom_rules" twice (JSON keeps only the last, silently): keep one`);
    writeFileSync(file, '{"pro": {"custom_rules": 50}, "business": {"custom_rules": 50}}');
    expect(loadPlanLimitsFile(file)).toEqual({ pro: { custom_rules: 50 }, business: { custom_rules: 50 } });
  });

  it('a limits file that is not JSON: one line saying where, as for the credentials file', () => {
    const file = join(tmp, 'limits.json');
    writeFileSync(file, '{\n  "free": {},\n}\n');
    expect(() => loadPlanLimitsFile(file)).toThrow(`the limits file ${file} is not valid JSON at line 3, column 1`);
    // V8 says no position for an unexpected token, and quotes the text, newlines included: the place
    // is found all the same (it said only "is not valid JSON"), and the text is not shown.
    writeFileSync(file, '{\n  "free": nope\n}\n');
    expect(() => loadPlanLimitsFile(file)).toThrow(`the limits file ${file} is not valid JSON at line 2, column 11`);
    try { loadPlanLimitsFile(file); } catch (err) { expect((err as Error).message).not.toMatch(/\n|nope/); }
    expect(() => loadPlanLimitsFile(join(tmp, 'missing.json'))).toThrow(/^cannot read the limits file .*missing\.json: no such file or directory$/);
  });
});

describe('zone names and pages', () => {
  it.each([['Example.COM', 'example.com'], ['staging-zone', 'staging-zone'], ['a_b.c', 'a_b.c']])('accepts %s', (name, stored) => {
    expect(normalizeZoneName(name)).toBe(stored);
  });
  it.each(['', 'has space', '-x.com', 'a..b', '0123456789abcdef0123456789abcdef'])('refuses %j', (name) => {
    expect(() => normalizeZoneName(name)).toThrow();
  });
  it('reads page and per_page', () => {
    expect(parsePageRequest(new URLSearchParams('page=3&per_page=10'))).toEqual({ page: 3, perPage: 10, offset: 20 });
    expect(parsePageRequest(new URLSearchParams(''))).toEqual({ page: 1, perPage: 25, offset: 0 });
  });
});
