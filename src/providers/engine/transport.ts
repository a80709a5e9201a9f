/**
 * The in-process transport: each v4 call is one `Engine.dispatch`, as a trusted caller (no auth
 * scope), so the embedded engine answers exactly what `zonewall serve` would over HTTP. Nothing
 * is lost in transit here, so there is nothing to retry and no backoff.
 */
import type { Engine } from '../../engine/index.js';
import type { Envelope, Transport, TransportRequest, TransportResponse } from '../v4/transport.js';

/** A `Transport` that calls the embedded engine directly. */
export class EngineTransport implements Transport {
  readonly stats = { requests: 0, retries: 0 };

  constructor(readonly engine: Engine) {}

  async send(request: TransportRequest): Promise<TransportResponse> {
    this.stats.requests++;
    // A JSON round trip, as over HTTP: the caller's objects and the engine's state never alias.
    const body = request.body === undefined ? undefined : (JSON.parse(JSON.stringify(request.body)) as unknown);
    const response = await this.engine.dispatch({ method: request.method, path: request.path, query: request.query, body });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
    return { status: response.status, body: response.body as Envelope, headers };
  }

  backoff(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}
