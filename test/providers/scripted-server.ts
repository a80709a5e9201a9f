/**
 * A real HTTP server on 127.0.0.1:0 whose answers a test scripts call by call: a status and JSON
 * body, or `hang` (never answer, to make the client time out). Records every request it receives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; body?: unknown; raw?: string; headers?: Record<string, string> } | 'hang';

export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function scriptedServer(answer: (req: SeenRequest, index: number) => Answer): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      const a = answer(entry, seen.length - 1);
      if (a === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(a.status, { 'content-type': a.raw !== undefined ? 'text/html' : 'application/json', ...a.headers });
      res.end(a.raw ?? JSON.stringify(a.body ?? { success: true, errors: [], messages: [], result: null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/client/v4`,
    seen,
    close: () => new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A successful envelope. */
export const okBody = (result: unknown) => ({ success: true, errors: [], messages: [], result });
/** An error envelope. */
export const errorBody = (code: number, message: string) => ({ success: false, errors: [{ code, message }], messages: [], result: null });
