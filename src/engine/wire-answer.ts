/**
 * A zone object's answer as it crosses to the Worker's front on workerd: a list page whose JSON
 * bytes the engine keeps (`pageWithBytes`) goes as those bytes, not as its body, which workerd's RPC
 * would copy object by object (a structured clone of a hundred rows) for the front to serialise again
 * (issue 35: repeat reads on workerd were a quarter of the built-in runtime's). The front reads the
 * body from the bytes only if something asks for it (`--strict` stripping); the response is the bytes.
 */
import { serialisedBytes } from './envelope.js';
import type { ApiResponse, Envelope } from './types.js';

/** What crosses the RPC boundary: an answer, or its status, headers and body bytes. */
export type WireAnswer = ApiResponse | { status: number; headers?: Record<string, string>; json: Uint8Array };

/** The answer to send across: its bytes when the engine has them. */
export function toWire(answer: ApiResponse): WireAnswer {
  const json = serialisedBytes(answer.body);
  if (json === undefined) return answer;
  return answer.headers === undefined ? { status: answer.status, json } : { status: answer.status, headers: answer.headers, json };
}

/** The answer on the front's side: a body read from the bytes when first asked for. */
export function fromWire(wire: WireAnswer): ApiResponse {
  if (!('json' in wire)) return wire;
  const { json } = wire;
  let body: Envelope | undefined;
  const answer = { status: wire.status, ...(wire.headers !== undefined ? { headers: wire.headers } : {}), json } as ApiResponse;
  Object.defineProperty(answer, 'body', {
    enumerable: true,
    get: () => (body ??= JSON.parse(new TextDecoder().decode(json)) as Envelope),
  });
  return answer;
}
