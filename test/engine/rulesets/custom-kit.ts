/**
 * Test kit of the custom rules suites: one engine in a temp directory reached two ways, the real
 * HTTP server on 127.0.0.1 and the in-process `Engine.dispatch`, behind one `call` so every case
 * runs over both; plus rule builders and the custom phase's paths.
 */
import { codes, result, startHarness, type Harness, type Reply } from '../helpers.js';
import type { PlanTier } from '../../../src/engine/index.js';

export { codes, result };

export const Phase = 'http_request_firewall_custom';

/** One way of sending a request. */
export type Call = (method: string, path: string, body?: unknown) => Promise<Reply>;

/** The harness and both transports. */
export interface CustomKit {
  h: Harness;
  transports: [name: string, call: Call][];
  zone(plan?: PlanTier): Promise<string>;
}

let n = 0;

/** Starts the kit (the caller cleans `h` up). */
export async function startCustomKit(): Promise<CustomKit> {
  const h = await startHarness();
  const dispatch: Call = async (method, path, body) => {
    const url = new URL(`http://x${path}`);
    const res = await h.engine.dispatch({ method, path: url.pathname, query: url.searchParams, ...(body !== undefined ? { body } : {}) });
    return { status: res.status, body: res.body, headers: {}, text: '' };
  };
  const http: Call = async (method, path, body) => {
    if (method !== 'DELETE' || !/\/rulesets\/[0-9a-f]{32}(\/versions\/[^/]+)?$/.test(path.split('?')[0]!)) return h.api(method, path, body);
    // A 204 has no body on the wire: read the status only.
    const res = await fetch(`${h.server.url}${path}`, { method, headers: { authorization: 'Bearer test-token-all-zones-0001' } });
    const text = await res.text();
    return { status: res.status, body: text === '' ? { result: null, success: res.ok, errors: [], messages: [] } : JSON.parse(text), headers: {}, text };
  };
  return { h, transports: [['http', http], ['dispatch', dispatch]], zone: (plan = 'enterprise') => h.zone(`custom${++n}.example`, plan) };
}

/** The custom entry point's path. */
export const entry = (z: string): string => `/zones/${z}/rulesets/phases/${Phase}/entrypoint`;

/** A rule body. */
export function rule(action: string, expression = 'http.request.uri.path eq "/admin"', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { action, expression, ...extra };
}

/** A stored rule as returned. */
export interface Rule {
  id: string;
  ref: string;
  version: string;
  action: string;
  expression: string;
  description?: string;
  enabled: boolean;
  last_updated: string;
  action_parameters?: Record<string, unknown>;
  logging?: { enabled: boolean };
}

/** A ruleset as returned. */
export interface Ruleset {
  id: string;
  name: string;
  description: string;
  kind: string;
  phase: string;
  version: string;
  last_updated: string;
  rules: Rule[];
}

/** The first error's code and pointer. */
export function refusal(reply: Reply): [number, number | undefined, string | undefined] {
  const e = reply.body.errors[0];
  return [reply.status, e?.code, e?.source?.pointer];
}
