/**
 * The provider options every zone command shares: how commands find the embedded engine's state
 * directory without `--state-dir` (the nearest `.zonewall` directory in the working directory or a
 * parent, as git finds `.git`, else `./.zonewall`; `--state-dir` wins), and option values checked
 * the same way whichever provider runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findStateDir, providerOptions, retryNotice, stateDirOption, workerdNotice } from '../../src/cli/provider-options.js';

let root: string;
beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'zw-state-dir-')); });
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('findStateDir', () => {
  it('finds .zonewall in the working directory', () => {
    mkdirSync(join(root, '.zonewall'));
    expect(findStateDir(root)).toBe('.zonewall');
  });

  it('finds the nearest .zonewall in a parent, relative to the working directory', () => {
    mkdirSync(join(root, '.zonewall'));
    mkdirSync(join(root, 'zones', 'prod'), { recursive: true });
    expect(findStateDir(join(root, 'zones', 'prod'))).toBe(join('..', '..', '.zonewall'));
    mkdirSync(join(root, 'zones', '.zonewall'));
    expect(findStateDir(join(root, 'zones', 'prod'))).toBe(join('..', '.zonewall'));
  });

  it('ignores a file named .zonewall, and falls back to ./.zonewall when none is found', () => {
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'a', '.zonewall'), '');
    // The temp root has no .zonewall above it on a test machine; the fallback is the working directory's.
    expect(findStateDir(join(root, 'a', 'b'))).toBe('.zonewall');
  });

  it('--state-dir wins over the lookup, for every provider option path', () => {
    expect(stateDirOption({ stateDir: 'elsewhere' })).toBe('elsewhere');
    expect(providerOptions({ stateDir: 'elsewhere' }, {}).stateDir).toBe('elsewhere');
    expect(providerOptions({}, {}).stateDir).toBe(findStateDir());
  });
});

describe('option values are checked on every provider', () => {
  const remote = { remote: 'http://127.0.0.1:9/client/v4' };
  for (const [name, where] of [['the embedded engine', {}], ['a remote API', remote]] as const) {
    it(`${name}: --rate-limit, ZONEWALL_RATE_LIMIT, --timeout and --lock-timeout with bad values are refused`, () => {
      expect(() => providerOptions({ ...where, rateLimit: 'abc' }, {})).toThrow(/invalid rate limit "abc"/);
      expect(() => providerOptions(where, { ZONEWALL_RATE_LIMIT: 'abc' })).toThrow(/invalid rate limit "abc"/);
      expect(() => providerOptions({ ...where, timeout: 'soon' }, {})).toThrow(/--timeout must be a positive number/);
      expect(() => providerOptions({ ...where, lockTimeout: 'later' }, {})).toThrow(/--lock-timeout must be a duration/);
    });
  }

  it('the flag wins over ZONEWALL_RATE_LIMIT, which is then not read', () => {
    expect(providerOptions({ remote: 'http://127.0.0.1:9', rateLimit: '10/1s' }, { ZONEWALL_RATE_LIMIT: 'abc' }).rateLimit).toEqual({ requests: 10, seconds: 1 });
    expect(providerOptions({ remote: 'http://127.0.0.1:9' }, { ZONEWALL_RATE_LIMIT: '600/300s' }).rateLimit).toEqual({ requests: 600, seconds: 300 });
  });
});

describe('provider wiring', () => {
  it('--lock-timeout reaches the embedded engine (its state-directory lock waits too)', () => {
    expect(providerOptions({ stateDir: 's', lockTimeout: '2s' }, {})).toEqual({ stateDir: 's', lockTimeoutMs: 2000 });
  });

  it('every retry is reported in one line, a lost POST answer included', () => {
    const lines: string[] = [];
    retryNotice({ method: 'POST', path: '/zones/z/filters', reason: 'lost-answer', attempt: 0, delayMs: 300 }, (t) => lines.push(t));
    retryNotice({ method: 'GET', path: '/zones/z/filters', reason: 'network', attempt: 1, delayMs: 400 }, (t) => lines.push(t));
    expect(lines).toEqual([
      'zonewall: POST /zones/z/filters: the answer was lost; re-reading in 0.3s to send only what is missing (attempt 1)\n',
      'zonewall: GET /zones/z/filters: network error; retrying in 0.4s (attempt 2)\n',
    ]);
  });
});

describe('a state directory served by the workerd runtime', () => {
  it('is named in a warning: the built-in copies of its zones are not what serve --runtime workerd answers', () => {
    expect(workerdNotice(root)).toBeUndefined();
    mkdirSync(join(root, 'workerd'));
    const notice = workerdNotice(root)!;
    expect(notice).toMatch(/^warning: .* is served by the workerd runtime/);
    expect(notice).toContain(join(root, 'workerd'));
    expect(notice).toContain('--remote');
    expect(notice).not.toContain('\n');
  });
});
