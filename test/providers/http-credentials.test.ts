import { describe, it, expect } from 'vitest';
import { authHeaders, credentialsFromEnv, redact } from '../../src/providers/http/credentials.js';
import { ZonewallError } from '../../src/errors.js';

describe('credentialsFromEnv', () => {
  it('prefers the token over a key pair', () => {
    const c = credentialsFromEnv({ ZONEWALL_API_TOKEN: 'tok', ZONEWALL_AUTH_EMAIL: 'a@b.c', ZONEWALL_AUTH_KEY: 'key' });
    expect(c).toEqual({ type: 'token', token: 'tok' });
    expect(authHeaders(c)).toEqual({ authorization: 'Bearer tok' });
  });

  it('reads the e-mail and key pair', () => {
    const c = credentialsFromEnv({ ZONEWALL_AUTH_EMAIL: 'a@b.c', ZONEWALL_AUTH_KEY: 'key' });
    expect(authHeaders(c)).toEqual({ 'x-auth-email': 'a@b.c', 'x-auth-key': 'key' });
  });

  it('names the missing half of a key pair', () => {
    expect(() => credentialsFromEnv({ ZONEWALL_AUTH_EMAIL: 'a@b.c' })).toThrow(/ZONEWALL_AUTH_KEY is not set/);
    expect(() => credentialsFromEnv({ ZONEWALL_AUTH_KEY: 'k' })).toThrow(/ZONEWALL_AUTH_EMAIL is not set/);
  });

  it('is an ERR_AUTH error when nothing is set, naming the variables', () => {
    const err = (() => { try { credentialsFromEnv({}); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(ZonewallError);
    expect((err as ZonewallError).code).toBe('ERR_AUTH');
    expect((err as Error).message).toContain('ZONEWALL_API_TOKEN');
  });
});

describe('redact', () => {
  it('replaces every occurrence of each secret', () => {
    expect(redact('a SECRET b SECRET', ['SECRET'])).toBe('a [REDACTED] b [REDACTED]');
  });
});
