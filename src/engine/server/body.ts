/**
 * Reading a request body: at most `maxBytes` (1 MiB by default), JSON only. An oversized body is
 * drained (up to a bound, so the client sees the answer instead of a reset connection) and refused
 * with 413; a body with another Content-Type gets 415; malformed JSON gets 400 with the parser's
 * message. No body at all reads as `undefined`.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../api-errors.js';

/** Default body limit: 1 MiB. */
export const DefaultMaxBodyBytes = 1024 * 1024;

/** Beyond this many times the limit an oversized upload is cut off instead of drained. */
const DRAIN_FACTOR = 8;

/** Whether `req` has a body: with no Content-Length and no Transfer-Encoding, HTTP/1.1 says none (most GETs). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

/** Reads and parses the JSON body of `req`; undefined when there is none. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes * DRAIN_FACTOR) {
    req.resume();
    throw tooLarge(maxBytes, declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
    else if (size > maxBytes * DRAIN_FACTOR) {
      req.destroy();
      break;
    }
  }
  if (size > maxBytes) throw tooLarge(maxBytes, size);
  if (size === 0) return undefined;
  checkContentType(req.headers['content-type']);
  return parseJson(Buffer.concat(chunks, size).toString('utf8'));
}

/**
 * The same for a Fetch API `Request` (the Worker on workerd): the same limits, refusals and
 * messages. An oversized upload is cut off at the limit (a Worker does not drain).
 */
export async function readJsonRequest(request: Request, maxBytes: number): Promise<unknown> {
  if (request.body === null) return undefined;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes, declared);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes, size);
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  checkContentType(request.headers.get('content-type') ?? undefined);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return parseJson(new TextDecoder().decode(bytes));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw ApiError.of('malformedJson', `the request body is not valid JSON: ${(err as Error).message}`);
  }
}

function checkContentType(value: string | undefined): void {
  const type = (value ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))) return;
  throw ApiError.of('unsupportedMediaType', `the request body must be JSON with Content-Type: application/json (got ${value === undefined ? 'no Content-Type' : JSON.stringify(value)})`);
}

function tooLarge(maxBytes: number, size: number): ApiError {
  const err = ApiError.of('bodyTooLarge', `the request body is ${size} bytes; the limit is ${maxBytes} bytes (split the batch into smaller requests)`);
  return new ApiError(err.status, err.errors, { connection: 'close' });
}
