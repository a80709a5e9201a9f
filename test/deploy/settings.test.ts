/**
 * The Worker's credentials (`deploy/worker/settings.ts`): its secrets are read by the engine's one
 * reader, as `zonewall serve` reads its environment and `--credentials FILE`, with the same checks
 * and the same located, value-free errors. Before, `ZONEWALL_CREDENTIALS` was taken as parsed.
 */
import { describe, expect, it } from 'vitest';
import { credentialsOf, planLimitsOf } from '../../deploy/worker/settings.js';

const token = 'worker-SECRET-0123456789';

function refused(settings: Parameters<typeof credentialsOf>[0]): string {
  try {
    credentialsOf(settings);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

describe('the Worker\'s credentials', () => {
  it('reads the secrets as serve reads its environment and file', () => {
    expect(credentialsOf({ ZONEWALL_SERVE_TOKEN: token, ZONEWALL_CREDENTIALS: `[{"email": "a@b.example", "key": "${token}-k", "zones": ["A.example"]}]` })).toEqual([
      { type: 'token', token, zones: '*' },
      { type: 'key', email: 'a@b.example', key: `${token}-k`, zones: ['a.example'] },
    ]);
    expect(credentialsOf({ ZONEWALL_CREDENTIALS: `{"credentials": [{"token": "${token}", "zones": "*"}]}` })).toEqual([{ type: 'token', token, zones: '*' }]);
    expect(credentialsOf({})).toEqual([]);
  });

  it('refuses a repeat, a key written twice and a malformed entry, located, without the value', () => {
    const messages = [
      refused({ ZONEWALL_SERVE_TOKEN: token, ZONEWALL_CREDENTIALS: `[{"token": "${token}", "zones": ["a.example"]}]` }),
      refused({ ZONEWALL_CREDENTIALS: `[{"token": "${token}", "zones": ["a.example"], "zones": "*"}]` }),
      refused({ ZONEWALL_CREDENTIALS: `[{"token": "${token}"}]` }),
      refused({ ZONEWALL_CREDENTIALS: `[{"token": "${token}", "zones": "*"` }),
      refused({ ZONEWALL_SERVE_TOKEN: 'short' }),
    ];
    expect(messages).toEqual([
      'ZONEWALL_CREDENTIALS:1:2: credentials[0] repeats the token of ZONEWALL_SERVE_TOKEN, which already has every zone (the value is not shown): remove the entry or unset the variable',
      'ZONEWALL_CREDENTIALS:1:64: credentials[0] has "zones" twice (JSON keeps only the last, silently): keep one',
      'ZONEWALL_CREDENTIALS: credentials[0].zones is required: "*" (every zone) or a non-empty list of zone names or ids',
      expect.stringMatching(/^the secret ZONEWALL_CREDENTIALS is not valid JSON.* \(its content is not shown\)$/),
      'ZONEWALL_SERVE_TOKEN must be at least 8 characters with no whitespace (the value is not shown)',
    ]);
    expect(messages.join('\n')).not.toContain('SECRET');
  });
});

describe('the Worker\'s plan limits', () => {
  // ZONEWALL_LIMITS was taken as parsed: a tier written twice kept the last, an unknown tier or a
  // negative quota went through. It is read as `serve --limits FILE` is.
  it('reads ZONEWALL_LIMITS as serve reads --limits FILE', () => {
    expect(planLimitsOf({ ZONEWALL_LIMITS: '{"free": {"firewall_rules": 10}}' }).free.firewall_rules).toBe(10);
    expect(planLimitsOf({}).free.firewall_rules).toBe(5);
    expect(() => planLimitsOf({ ZONEWALL_LIMITS: '{"free": {"firewall_rules": 10},\n "free": {"log": true}}' }))
      .toThrow('ZONEWALL_LIMITS:2:2: the top-level object has "free" twice (JSON keeps only the last, silently): keep one');
    expect(() => planLimitsOf({ ZONEWALL_LIMITS: '{"gold": {}}' })).toThrow(/^ZONEWALL_LIMITS: unknown plan tier "gold"/);
    expect(() => planLimitsOf({ ZONEWALL_LIMITS: '{"free": nope}' })).toThrow('the variable ZONEWALL_LIMITS is not valid JSON at line 1, column 10');
  });
});

