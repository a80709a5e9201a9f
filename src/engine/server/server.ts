/**
 * The v4 HTTP server of `zonewall serve`: `node:http`, no framework, bound to loopback only. It
 * authenticates, reads the JSON body (1 MiB limit), hands the request to `Engine.dispatch` and
 * writes the envelope. Every answer, including malformed requests, unknown routes, wrong methods
 * and crashes, is an envelope; stack traces go to the server's stderr, never to the client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { ZonewallError } from '../../errors.js';
import { ApiError } from '../api-errors.js';
import type { Engine } from '../engine.js';
import { accessFailureOf, errorResponse, failureResponse, noRouteError, serialisedBytes } from '../envelope.js';
import type { ApiRequest, ApiResponse, AuthScope } from '../types.js';
import { CredentialStore, verifyToken as verifyTokenResponse } from './auth.js';
import { DefaultMaxBodyBytes, hasBody, readJsonBody } from './body.js';
import type { Credential } from './credentials.js';
import { TargetCache } from './targets.js';

/** Options of `startServer`. */
export interface ServerOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Loopback only: 127.0.0.1 (default), localhost or ::1. */
  host?: string;
  /** Accepted credentials; with none, every request is refused unless `insecureNoAuth`. */
  credentials: Credential[];
  /** Request body limit in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Accept every request without credentials (`zonewall serve --insecure-no-auth`). */
  insecureNoAuth?: boolean;
  /** Where unexpected errors are reported (default: stderr). */
  logError?: (message: string, err: unknown) => void;
  /** Where one-line notices go (a client that dropped its upload); default: stderr. */
  logNotice?: (message: string) => void;
}

/** A started server. */
export interface RunningServer {
  /** Base URL of the API, e.g. `http://127.0.0.1:8787/client/v4`. */
  url: string;
  port: number;
  /** Stops accepting connections, closes open ones and resolves when done. */
  close(): Promise<void>;
}

const PREFIX = '/client/v4';
const VERIFY_PATH = '/user/tokens/verify';
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/** Starts serving `engine` over HTTP. */
export async function startServer(engine: Engine, options: ServerOptions): Promise<RunningServer> {
  const host = checkLoopback(options.host ?? '127.0.0.1');
  const store = new CredentialStore(options.credentials);
  const settings = {
    engine, store, insecure: options.insecureNoAuth === true, maxBodyBytes: options.maxBodyBytes ?? DefaultMaxBodyBytes,
    targets: new TargetCache(),
    logError: options.logError ?? defaultLogError,
    logNotice: options.logNotice ?? defaultLogNotice,
  };
  // The bytes of each answer body, kept while the engine keeps the body (its read memo): a repeat
  // read is sent without serialising again. Per server, as a server answers in one mode only.
  const bytes = new WeakMap<object, Sent>();
  // node:http is required when a server starts: every command imports the engine, one serves it.
  const { createServer } = createRequire(import.meta.url)('node:http') as typeof import('node:http');
  const server = createServer((req, res) => {
    const response = handle(req, settings);
    if (response instanceof Promise) void response.then((r) => send(res, logDenied(req, settings, r), bytes));
    else send(res, logDenied(req, settings, response), bytes);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${PREFIX}`,
    port,
    close: () => new Promise<void>((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections();
    }),
  };
}

/** `host` when it is a loopback address, else the refusal (both runtimes of `serve`). */
export function checkLoopback(host: string): string {
  if (!LOOPBACK.includes(host) && !/^127\.\d+\.\d+\.\d+$/.test(host)) {
    throw new ZonewallError('ERR_USAGE', `zonewall serve listens on loopback only (127.0.0.1, localhost, ::1); got host ${host}`);
  }
  return host;
}

interface Settings {
  engine: Engine;
  store: CredentialStore;
  insecure: boolean;
  maxBodyBytes: number;
  targets: TargetCache;
  logError: (message: string, err: unknown) => void;
  logNotice: (message: string) => void;
}

/** An answer body's bytes, and the headers of a 200 without headers of its own that sends them (made once). */
interface Sent {
  json: Buffer;
  plainHeaders: Record<string, string | number> | undefined;
}

/**
 * One request's answer. Not an `async` function: a request without a body (most reads) goes to the
 * engine at once and its answer is the engine's promise, with no turn of the microtask queue per
 * layer; only a body is awaited. Never rejects.
 */
function handle(req: IncomingMessage, s: Settings): ApiResponse | Promise<ApiResponse> {
  try {
    const { pathname, query, queryPairs } = s.targets.split(req.url ?? '/');
    if (pathname !== PREFIX && !pathname.startsWith(`${PREFIX}/`)) throw noRouteError(pathname);
    const path = pathname.slice(PREFIX.length) || '/';
    // The connection is passed so that a keep-alive client's credentials are checked once, not at
    // every request (see `CredentialStore.authenticate`).
    const auth: AuthScope | undefined = s.insecure ? undefined : s.store.authenticate(req.headers, req.socket);
    if (path === VERIFY_PATH || path === `${VERIFY_PATH}/`) return verifyToken(req, s);
    const request: ApiRequest = { method: req.method ?? 'GET', path, query, queryPairs, body: undefined };
    if (auth !== undefined) request.auth = auth;
    if (!hasBody(req)) return s.engine.respond(request);
    return readJsonBody(req, s.maxBodyBytes).then((body) => {
      request.body = body;
      return s.engine.respond(request);
    }).catch((err: unknown) => failure(req, s, err));
  } catch (err) {
    return failure(req, s, err);
  }
}

/**
 * `response`, after logging the state-directory access error it stands for, if any: one line
 * naming the file, its owner and mode and what to do, no stack trace (`failureResponse`).
 */
function logDenied(req: IncomingMessage, s: Settings, response: ApiResponse): ApiResponse {
  const denied = accessFailureOf(response);
  if (denied !== undefined) s.logError(`${req.method} ${redactTarget(req.url)} failed`, denied.message);
  return response;
}

/** The envelope of a request that failed before the engine answered it. */
function failure(req: IncomingMessage, s: Settings, err: unknown): ApiResponse {
  if (!(err instanceof ApiError) && clientGone(req, err)) {
    // The client dropped the connection mid-upload: nothing to answer, nothing went wrong here.
    s.logNotice(`${req.method} ${redactTarget(req.url)}: the client closed the connection before its request body arrived; nothing was applied`);
    return errorResponse(ApiError.of('malformedJson', 'the request body was cut off'));
  }
  return failureResponse(err, `${req.method} ${req.url}`, s.logError);
}

/** `GET /user/tokens/verify`: the real service's token check. */
function verifyToken(req: IncomingMessage, s: Settings): ApiResponse {
  return verifyTokenResponse(req.method ?? 'GET', req.headers.authorization, s.store);
}

function send(res: ServerResponse, response: ApiResponse, bytes: WeakMap<object, Sent>): void {
  // 204 (e.g. DELETE of a ruleset) has no body on the wire.
  if (response.status === 204) {
    res.writeHead(204, { ...response.headers });
    res.end();
    return;
  }
  const body = response.body as unknown;
  const key = typeof body === 'object' && body !== null ? body : undefined;
  let sent = key === undefined ? undefined : bytes.get(key);
  if (sent === undefined) {
    const assembled = key === undefined ? undefined : serialisedBytes(key);
    // A Buffer over the assembled bytes (no copy): node:http would wrap a plain Uint8Array at every send.
    const json = assembled !== undefined ? Buffer.from(assembled.buffer, assembled.byteOffset, assembled.byteLength) : Buffer.from(JSON.stringify(body), 'utf8');
    sent = { json, plainHeaders: undefined };
    if (key !== undefined) bytes.set(key, sent);
  }
  // A repeat read (a 200 with no headers of its own) reuses its headers object: no object built per send.
  const plain = response.status === 200 && response.headers === undefined;
  const headers = plain ? (sent.plainHeaders ??= jsonHeaders(sent.json, undefined)) : jsonHeaders(sent.json, response.headers);
  res.writeHead(response.status, headers);
  res.end(sent.json);
}

/** The headers of a JSON answer: type, length, then the answer's own (node:http only reads them). */
function jsonHeaders(json: Buffer, own: Record<string, string> | undefined): Record<string, string | number> {
  return { 'content-type': 'application/json; charset=utf-8', 'content-length': json.length, ...own };
}

/** The request target without its query (ids there add nothing to a log line). */
function redactTarget(target: string | undefined): string {
  return (target ?? '/').split('?')[0]!;
}

/** Whether reading failed because the client went away (an aborted upload), not because of us. */
function clientGone(req: IncomingMessage, err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return req.destroyed && (code === 'ECONNRESET' || code === 'ECONNABORTED' || (err instanceof Error && err.message === 'aborted'));
}

function defaultLogNotice(message: string): void {
  process.stderr.write(`zonewall serve: ${message}\n`);
}

function defaultLogError(message: string, err: unknown): void {
  process.stderr.write(`zonewall serve: ${message}: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
}
