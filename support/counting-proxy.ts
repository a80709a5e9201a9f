/**
 * A counting HTTP proxy on 127.0.0.1: forwards every request to a v4 server and counts it by route
 * (method and path with ids as `{id}`, no query), so tests and `bench/http.ts` see exactly which
 * requests a run sends, through the real HTTP provider. In `support/` (code the tests and the
 * benchmarks share, importing neither) so that `bench/` imports nothing from `test/`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running proxy: its base URL (same path as the target) and the counts so far. */
export interface CountingProxy {
  url: string;
  counts: Map<string, number>;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

/** `GET /client/v4/zones/0123…/filters?page=2` → `GET /zones/{id}/filters`. */
export function routeOf(method: string, url: string): string {
  const path = url.split('?')[0]!.replace(/^\/client\/v4/, '').replace(/\/[0-9a-f]{32}(?=\/|$)/g, '/{id}');
  return `${method} ${path}`;
}

/** Starts a proxy in front of `target` (a base URL such as `http://127.0.0.1:1234/client/v4`). */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const counts = new Map<string, number>();
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const route = routeOf(req.method ?? 'GET', req.url ?? '/');
    counts.set(route, (counts.get(route) ?? 0) + 1);
    const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    counts,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => counts.clear(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
