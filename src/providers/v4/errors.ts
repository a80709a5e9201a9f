/**
 * Provider errors. `ProviderError` is a failure to reach or understand the service (network,
 * timeouts, malformed answers); `ServiceError` is the service refusing a call, carrying its HTTP
 * status and the envelope's errors (code + message) so callers can branch on the service's codes.
 * Messages never contain credentials: the HTTP transport redacts them before an error is built.
 */
import { ZonewallError } from '../../errors.js';
import type { ErrorCode } from '../../errors.js';
import type { ApiMessage, HttpMethod } from './transport.js';

/** Whether a failed call may have taken effect: `unknown` for a write whose answer never arrived. */
export type CallOutcome = 'not-applied' | 'unknown';

/** The provider could not reach or understand the service. */
export class ProviderError extends ZonewallError {
  /** `unknown` when the request may have been processed (timeout or dropped connection after sending). */
  readonly outcome: CallOutcome;

  constructor(message: string, options: { code?: ErrorCode; cause?: unknown; outcome?: CallOutcome } = {}) {
    super(options.code ?? 'ERR_PROVIDER', message, { cause: options.cause });
    this.outcome = options.outcome ?? 'not-applied';
  }
}

/** HTTP statuses whose refusals are about credentials rather than the request. */
const AuthStatuses = new Set([401, 403]);

/** The service refused a call: its status and the envelope's errors, verbatim. */
export class ServiceError extends ProviderError {
  readonly status: number;
  readonly errors: ApiMessage[];
  readonly method: HttpMethod;
  readonly path: string;

  constructor(init: { method: HttpMethod; path: string; status: number; errors: ApiMessage[]; outcome?: CallOutcome }) {
    // One line, and no control character of the server's text (an escape sequence) on the user's terminal.
    const said = init.errors.map(formatApiMessage).filter((r) => r.trim() !== '');
    const reasons = (said.length > 0 ? said.join('; ') : 'no reason given').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
    super(`${init.method} ${init.path} refused with HTTP ${init.status}: ${reasons}`, {
      code: AuthStatuses.has(init.status) ? 'ERR_AUTH' : 'ERR_API',
      outcome: init.outcome ?? 'not-applied',
    });
    this.status = init.status;
    this.errors = init.errors;
    this.method = init.method;
    this.path = init.path;
  }

  /** True when one of the service's errors has `code`. */
  hasCode(code: number): boolean {
    return this.errors.some((e) => e.code === code);
  }
}

/** `message (code)`, with the error chain's reasons appended. */
export function formatApiMessage(m: ApiMessage): string {
  const head = m.message === '' && m.code !== undefined ? `error ${m.code}` : m.code !== undefined ? `${m.message} (${m.code})` : m.message;
  const chain = m.error_chain?.map(formatApiMessage) ?? [];
  return chain.length > 0 ? `${head}: ${chain.join(', ')}` : head;
}

/** True for an error after which a write may or may not have been applied. */
export function isUnknownOutcome(err: unknown): err is ProviderError {
  return err instanceof ProviderError && err.outcome === 'unknown';
}
