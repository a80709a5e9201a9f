/**
 * The in-process transport: each v4 call is one `Engine.dispatch`, as a trusted caller (no auth
 * scope), so the embedded engine answers exactly what `zonewall serve` would over HTTP. Nothing
 * is lost in transit here, so there is nothing to retry and no backoff. Calls on a zone the run
 * planned before it existed go through `PendingZones` (reads from the zone as it would be created,
 * the first write creates it).
 */
import type { Engine } from '../../engine/index.js';
import type { PendingZones } from './pending.js';
import type { Envelope, Transport, TransportRequest, TransportResponse } from '../v4/transport.js';

/** A `Transport` that calls the embedded engine directly. */
export class EngineTransport implements Transport {
  readonly stats = { requests: 0, retries: 0 };
  /** The engine's answers have the shapes its own routes give: not checked again. */
  readonly trusted = true;

  constructor(readonly engine: Engine, readonly pending?: PendingZones) {}

  /** A read-only engine that no writer can reach answers from one state (pending zones are only read too). */
  get fixed(): boolean {
    return this.engine.frozen;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    this.stats.requests++;
    // A JSON round trip, as over HTTP: the caller's objects and the engine's state never alias.
    const body = request.body === undefined ? undefined : (JSON.parse(JSON.stringify(request.body)) as unknown);
    const engine = this.pending === undefined ? this.engine : await this.pending.engineFor(request.method, request.path, body);
    const response = await engine.dispatch({ method: request.method, path: request.path, query: request.query, body });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
    return { status: response.status, body: response.body as Envelope, headers };
  }

  backoff(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    try {
      await this.pending?.close();
    } finally {
      await this.engine.close();
    }
  }
}
