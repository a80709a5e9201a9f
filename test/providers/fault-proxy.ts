/**
 * A real HTTP proxy on 127.0.0.1 in front of `zonewall serve`, with scripted faults: calls that match
 * an expectation get its answer (a status, a cut-off body, a stall, a dropped connection), every other
 * call passes through to the real server. It replaces nock, whose interception of undici's pool needs
 * @mswjs/interceptors 0.44+, which asks for Node 22 (an EBADENGINE warning on the Node we support); a
 * proxy also exercises the transport's real sockets, which an in-process interceptor does not.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scripted answer sees of the call. */
export interface Intercepted {
  method: string;
  /** Path and query, as sent. */
  uri: string;
  json(): Promise<unknown>;
}

/** Status, body (a string goes out as is: a cut-off JSON text, say) and headers. */
export type Answer = [status: number, body: string | object, headers?: Record<string, string>];

/** A scripted answer; throwing drops the connection without an answer (a reset). */
export type Reply = (req: Intercepted) => Promise<Answer> | Answer;

/** A path alone matches that path with any query; a function gets the path and query. */
export type UriMatch = string | ((uri: string) => boolean);

interface Expectation {
  method: string;
  uri: UriMatch;
  reply: Reply;
  left: number;
}

export class FaultProxy {
  private readonly expectations: Expectation[] = [];
  private readonly agent = new http.Agent({ keepAlive: true });
  private closeAfterAnswer = false;

  private constructor(private readonly server: http.Server, private readonly target: URL) {}

  /** Starts a proxy for `target` (the real server's URL) on an ephemeral port. */
  static async start(target: string): Promise<FaultProxy> {
    let proxy: FaultProxy | undefined;
    const server = http.createServer((req, res) => { void proxy?.handle(req, res); });
    proxy = new FaultProxy(server, new URL(target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's URL: the target's, on the proxy's port. */
  get url(): string {
    const u = new URL(this.target.href);
    u.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return u.href.replace(/\/$/, '');
  }

  get origin(): string {
    return new URL(this.url).origin;
  }

  /** The next `times` calls that match get `reply` (an answer, or a function making one). */
  on(method: string, uri: UriMatch, reply: Reply | Answer, times = 1): this {
    this.expectations.push({ method, uri, reply: typeof reply === 'function' ? reply : () => reply, left: times });
    return this;
  }

  /** Expectations not yet used up, for "every fault was met" assertions. */
  pending(): string[] {
    return this.expectations.filter((e) => e.left > 0).map((e) => `${e.method} ${typeof e.uri === 'string' ? e.uri : '(matcher)'}`);
  }

  clear(): void {
    this.expectations.length = 0;
  }

  /** After the next answer is written, stop listening and drop every connection (an outage). */
  goDownAfterAnswer(): void {
    this.closeAfterAnswer = true;
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private match(method: string, uri: string): Expectation | undefined {
    const path = uri.split('?')[0];
    return this.expectations.find((e) => e.left > 0 && e.method === method && (typeof e.uri === 'string' ? e.uri === path : e.uri(uri)));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const uri = req.url ?? '/';
    const expectation = this.match(method, uri);
    if (expectation === undefined) return this.pass(req, res, body);
    expectation.left--;
    let answer: Answer;
    try {
      answer = await expectation.reply({ method, uri, json: async () => JSON.parse(body.toString('utf8')) as unknown });
    } catch {
      req.socket.destroy();
      return;
    }
    if (res.destroyed) return; // the client gave up waiting (a stall)
    const [status, payload, headers = {}] = answer;
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    res.on('finish', () => { if (this.closeAfterAnswer) void this.close(); });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  private pass(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const upstream = http.request({
      agent: this.agent, host: this.target.hostname, port: this.target.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: this.target.host },
    }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => req.socket.destroy());
    upstream.end(body);
  }
}
