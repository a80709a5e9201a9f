import { describe, it, expect, afterEach } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, startServer } from '../../src/engine/index.js';
import type { Credential, RunningServer } from '../../src/engine/index.js';
import { openHttpProvider } from '../../src/providers/http/index.js';
import { providerContract } from '../../src/providers/contract.suite.js';
import type { ContractHarness } from '../../src/providers/contract.suite.js';
import { openProvider } from '../../src/providers/index.js';
import { ServiceError } from '../../src/providers/v4/errors.js';

const Token = 'zw-test-token-0123456789abcdefghijklmnopqrstuv';

interface Served {
  engine: Engine;
  server: RunningServer;
  dir: string;
  stop(): Promise<void>;
}

async function serve(strict = false, credentials: Credential[] = [{ type: 'token', token: Token, zones: '*' }]): Promise<Served> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-provider-http-'));
  const engine = await Engine.open({ dir, strict });
  const server = await startServer(engine, { port: 0, credentials });
  return {
    engine, server, dir,
    stop: async () => {
      await server.close();
      await engine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openHarness(strict = false): Promise<ContractHarness> {
  const s = await serve(strict);
  const provider = openHttpProvider({ url: s.server.url, env: { ZONEWALL_API_TOKEN: Token } });
  return {
    provider,
    strict,
    createZone: async (name, plan) => {
      await s.engine.createZone(name, { plan });
      // As every command does: resolve the zone through the provider before reading it.
      return (await provider.resolveZone(name)).zone;
    },
    raw: async (method, p, body) => {
      const res = await s.engine.dispatch({ method, path: p, body });
      return { status: res.status, body: res.body };
    },
    close: async () => {
      await provider.close();
      await s.stop();
    },
  };
}

providerContract('HTTP against zonewall serve', () => openHarness());
// The real API's shapes only: the provider must not depend on zonewall's extensions.
providerContract('HTTP against zonewall serve --strict', () => openHarness(true));

describe('HTTP provider', () => {
  let s: Served | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });

  it('never creates zones: a missing zone is an error that says so', async () => {
    s = await serve();
    const provider = openHttpProvider({ url: s.server.url, env: { ZONEWALL_API_TOKEN: Token } });
    await expect(provider.resolveZone('new.example', { create: { plan: 'pro' } })).rejects.toThrow(/zone "new\.example" not found at v4 API at .*, or not visible to this token: .*zonewall never creates zones on a remote API/);
    expect(await s.engine.getZone('new.example')).toBeUndefined();
    await provider.close();
  });

  it('a zone outside the token\'s zones, by name or by id, is "not found or not visible to this token", never one to create', async () => {
    const scoped = 'scoped-token-abcdefghijklmnopqrstuvwxyz';
    s = await serve(false, [{ type: 'token', token: scoped, zones: ['a.example'] }]);
    await s.engine.createZone('a.example');
    const hidden = await s.engine.createZone('b.example');
    const provider = openHttpProvider({ url: s.server.url, env: { ZONEWALL_API_TOKEN: scoped } });
    for (const zone of ['b.example', hidden.id]) {
      await expect(provider.resolveZone(zone, { create: { plan: 'enterprise' } })).rejects.toThrow(`zone "${zone}" not found at v4 API at ${s.server.url}, or not visible to this token: check the zone's name (or id) and the token's zone permissions`);
    }
    expect((await provider.resolveZone('a.example')).zone.name).toBe('a.example');
    await provider.close();
  });

  it('reports refused credentials as ERR_AUTH without echoing the token', async () => {
    s = await serve();
    const wrong = 'wrong-token-abcdefghijklmnopqrstuvwxyz0123456789';
    const provider = openHttpProvider({ url: s.server.url, env: { ZONEWALL_API_TOKEN: wrong } });
    const err = await provider.resolveZone('example.com').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('ERR_AUTH');
    expect(String((err as Error).message)).not.toContain(wrong);
    await provider.close();
  });

  it('is what openProvider returns for a remote URL, and states its budget', async () => {
    s = await serve();
    const provider = await openProvider({ remote: s.server.url, env: { ZONEWALL_API_TOKEN: Token }, rateLimit: { requests: 10, seconds: 60 } });
    expect(provider.kind).toBe('http');
    expect(provider.description).toBe(`v4 API at ${s.server.url}`);
    expect(provider.rateLimit).toEqual({ requests: 10, seconds: 60 });
    expect(provider.estimateSeconds?.(25)).toBe(120);
    await provider.close();
  });
});
