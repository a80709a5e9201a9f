/**
 * Errors of policy tests (code `ERR_POLICY_TESTS`): a cases file that cannot be found or read, is
 * invalid (every reason, each located as `file:line:col: path: message`), or names rules its
 * manifest does not have; and a zone whose trace cannot be asked (`--against-zone`).
 */
import { ZonewallError } from '../errors.js';
import { compareIssues, formatIssue, type ManifestIssue } from '../manifest/index.js';

/** A policy-tests problem; `reasons` holds the located ones. */
export class PolicyTestsError extends ZonewallError {
  readonly reasons: readonly ManifestIssue[];

  constructor(message: string, reasons: readonly ManifestIssue[] = [], options?: { cause?: unknown }) {
    const sorted = [...reasons].sort(compareIssues);
    super('ERR_POLICY_TESTS', sorted.length === 0 ? message : `${message}:\n${sorted.map(formatIssue).join('\n')}`, options);
    this.reasons = sorted;
  }
}
