/**
 * The migration's errors: one class, `MigrationError` (code `ERR_MIGRATION`, a user error), for
 * every refusal of `zonewall migrate`: an incompatible zone, validation mode on a tier without it,
 * the final step without `--force`, a manifest that cannot be rewritten.
 */
import { ZonewallError } from '../errors.js';

/** A migration zonewall refuses to run as asked; the message says why and the way out. */
export class MigrationError extends ZonewallError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_MIGRATION', message, options);
  }
}
