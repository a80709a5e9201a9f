/** The shared v4 client: transport seam, envelope unwrapping, pagination, batched writes, errors. */
export { V4Client, toSearchParams } from './client.js';
export type { CallResult, Query } from './client.js';
export { V4Codes, V4Limits, V4Paths, ManagedPhase, CustomPhase } from './constants.js';
export { chunk, mapLimit } from './concurrency.js';
export { ProviderError, ServiceError, formatApiMessage, isUnknownOutcome } from './errors.js';
export type { CallOutcome } from './errors.js';
export { normalizeMigrationStatus, readZone } from './read-zone.js';
export type { ApiMessage, Envelope, HttpMethod, ResultInfo, Transport, TransportRequest, TransportResponse } from './transport.js';
export { V4Provider } from './v4-provider.js';
