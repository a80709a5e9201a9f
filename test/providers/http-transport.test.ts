import { describe, it, expect, afterEach } from 'vitest';
import { HttpTransport } from '../../src/providers/http/transport.js';
import type { HttpTransportOptions, RetryEvent } from '../../src/providers/http/transport.js';
import { parseBaseUrl } from '../../src/providers/http/index.js';
import { V4Client } from '../../src/providers/v4/client.js';
import { ProviderError, ServiceError } from '../../src/providers/v4/errors.js';
import { FakeClock } from './fake-clock.js';
import { errorBody, okBody, scriptedServer } from './scripted-server.js';
import type { Answer, ScriptedServer, SeenRequest } from './scripted-server.js';

const Token = 'tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0zz';
let server: ScriptedServer | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = undefined;
  server = undefined;
});

async function setup(answer: (req: SeenRequest, i: number) => Answer, options: Partial<HttpTransportOptions> = {}) {
  server = await scriptedServer(answer);
  const clock = new FakeClock();
  const retries: RetryEvent[] = [];
  transport = new HttpTransport({
    url: parseBaseUrl(server.url),
    credentials: { type: 'token', token: Token },
    rateLimit: { requests: 1200, seconds: 300 },
    timeoutMs: 400,
    retries: 3,
    backoffBaseMs: 100,
    backoffMaxMs: 1000,
    maxRetryAfterSeconds: 60,
    connections: 2,
    clock,
    random: () => 0.5,
    onRetry: (e) => retries.push(e),
    ...options,
  });
  return { server, clock, retries, client: new V4Client(transport), transport };
}

describe('HttpTransport requests', () => {
  it('sends the token, JSON body and base path, and counts the request', async () => {
    const { server: s, client, transport: t } = await setup(() => ({ status: 200, body: okBody([{ id: 'a' }]) }));
    await client.call('POST', '/zones/z/filters', { body: [{ expression: 'true' }], query: { x: 1 } });
    expect(s.seen[0].url).toBe('/client/v4/zones/z/filters?x=1');
    expect(s.seen[0].headers.authorization).toBe(`Bearer ${Token}`);
    expect(s.seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(s.seen[0].body)).toEqual([{ expression: 'true' }]);
    expect(t.stats.requests).toBe(1);
  });

  it('sends the e-mail and key pair as X-Auth-Email / X-Auth-Key', async () => {
    const { server: s, client } = await setup(() => ({ status: 200, body: okBody(null) }), {
      credentials: { type: 'key', email: 'ops@example.com', key: 'k'.repeat(37) },
    });
    await client.call('GET', '/zones');
    expect(s.seen[0].headers['x-auth-email']).toBe('ops@example.com');
    expect(s.seen[0].headers['x-auth-key']).toBe('k'.repeat(37));
    expect(s.seen[0].headers.authorization).toBeUndefined();
  });
});

describe('HttpTransport retries', () => {
  it('honours Retry-After on 429, for a POST too, and pauses the rate limiter', async () => {
    const { clock, retries, client, transport: t } = await setup((_r, i) =>
      i === 0 ? { status: 429, body: errorBody(10429, 'rate limited'), headers: { 'retry-after': '2' } } : { status: 200, body: okBody([]) });
    await client.call('POST', '/zones/z/filters', { body: [] });
    expect(clock.sleeps[0]).toBe(2_000);
    expect(retries).toEqual([{ method: 'POST', path: '/zones/z/filters', attempt: 1, delayMs: 2_000, reason: 'rate-limited' }]);
    expect(t.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('does not wait for a Retry-After beyond the maximum, and says the service refused', async () => {
    const { client } = await setup(() => ({ status: 429, body: errorBody(10429, 'rate limited'), headers: { 'retry-after': '3600' } }));
    const err = await client.call('GET', '/zones').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(429);
    expect(server!.seen).toHaveLength(1);
  });

  it('retries a 5xx burst on reads with backoff', async () => {
    const { clock, client } = await setup((_r, i) => (i < 2 ? { status: 503, raw: '<html>busy</html>' } : { status: 200, body: okBody(['ok']) }));
    expect(await client.result('GET', '/zones')).toEqual(['ok']);
    expect(server!.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([50, 100]);
  });

  it('stops after the configured retries and reports the last answer', async () => {
    const { client } = await setup(() => ({ status: 500, raw: 'oops' }));
    const err = await client.call('GET', '/zones').catch((e: unknown) => e);
    expect((err as ServiceError).status).toBe(500);
    expect((err as Error).message).toContain('not a v4 JSON answer (HTTP 500): oops');
    expect(server!.seen).toHaveLength(4);
  });

  it('returns a 5xx answer to a POST without resending it: the outcome is unknown', async () => {
    const { client } = await setup(() => ({ status: 502, body: errorBody(10500, 'bad gateway') }));
    const err = await client.call('POST', '/zones/z/filters', { body: [] }).catch((e: unknown) => e);
    expect((err as ServiceError).outcome).toBe('unknown');
    expect(server!.seen).toHaveLength(1);
  });

  it('never resends a POST that timed out', async () => {
    const { client } = await setup(() => 'hang');
    const err = await client.call('POST', '/zones/z/filters', { body: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).outcome).toBe('unknown');
    expect((err as Error).message).toMatch(/no answer within 400 ms .*the service may have applied it/);
    expect(server!.seen).toHaveLength(1);
  });

  it('retries a read that timed out', async () => {
    const { client, retries } = await setup((_r, i) => (i === 0 ? 'hang' : { status: 200, body: okBody(1) }));
    expect(await client.result('GET', '/zones')).toBe(1);
    expect(retries.map((r) => r.reason)).toEqual(['timeout']);
  });

  it('resends a POST that never connected (nothing was sent)', async () => {
    const { client, transport: t } = await setup(() => ({ status: 200, body: okBody(null) }));
    await server!.close();
    server = undefined;
    const err = await client.call('POST', '/zones/z/filters', { body: [] }).catch((e: unknown) => e);
    expect((err as ProviderError).outcome).toBe('not-applied');
    expect((err as Error).message).toContain('after 4 attempts');
    expect(t.stats.requests).toBe(4);
  });
});

describe('HttpTransport credentials never leak', () => {
  it('a request the HTTP client refuses to send (a header with a line break) fails at once: nothing was sent, nothing is retried', async () => {
    const { server: s, client, retries } = await setup(() => ({ status: 200, body: okBody(null) }), {
      credentials: { type: 'token', token: `${Token}\nx` },
    });
    const err = await client.call('GET', '/zones').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).not.toMatch(/attempts/);
    expect((err as ProviderError).message).not.toContain(Token);
    expect(retries).toEqual([]);
    expect(s.seen).toEqual([]);
  });

  it('redacts the token from a refusal that echoes it', async () => {
    const { client } = await setup((req) => ({ status: 403, body: errorBody(9109, `Invalid access token: ${req.headers.authorization}`) }));
    const err = await client.call('GET', '/zones').catch((e: unknown) => e);
    expect((err as Error).message).toContain('Invalid access token: Bearer [REDACTED]');
    expect((err as Error).message).not.toContain(Token);
    expect((err as ServiceError).code).toBe('ERR_AUTH');
    expect(JSON.stringify((err as ServiceError).errors)).not.toContain(Token);
  });
});

describe('parseBaseUrl', () => {
  it('adds /client/v4 to a bare origin and drops query and fragment', () => {
    expect(parseBaseUrl('http://127.0.0.1:8787').href).toBe('http://127.0.0.1:8787/client/v4');
    expect(parseBaseUrl('https://api.example.com/client/v4/?a=1#x').href).toBe('https://api.example.com/client/v4/');
  });

  it('refuses credentials in the URL and other protocols', () => {
    expect(() => parseBaseUrl('https://me:secret@api.example.com/client/v4')).toThrow(/must not contain credentials/);
    expect(() => parseBaseUrl('ftp://api.example.com')).toThrow(/not http: or https:/);
    expect(() => parseBaseUrl('not a url')).toThrow(/invalid API URL/);
  });

  it('refuses a resource under the base (it was asked for /zones/zones), and keeps a proxy path before it', () => {
    expect(() => parseBaseUrl('http://127.0.0.1:8484/client/v4/zones')).toThrow(/not a resource under it; drop \/zones$/);
    expect(() => parseBaseUrl('http://127.0.0.1:8484/client/v4/zones/abc/')).toThrow(/drop \/zones\/abc$/);
    expect(() => parseBaseUrl('http://127.0.0.1:8484/zones')).toThrow(/drop \/zones$/);
    expect(parseBaseUrl('https://gw.example.com/user/zones-api/client/v4').pathname).toBe('/user/zones-api/client/v4');
  });
});
