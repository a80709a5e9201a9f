/**
 * The finding codes of account lists:
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `list-referenced` | error | a list the plan deletes is still used by a rule (named): the service refuses the delete |
 * | `deletes-list` | danger | a list is deleted (every rule that used it loses it) |
 * | `removes-many-items` | danger | more than the threshold of a list's items are removed |
 * | `list-kind-changed` | error | a list's kind differs from the live one: name and kind are immutable, rename it to replace it |
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** The codes and their levels. */
export const ListFindings = {
  'list-referenced': 'error',
  'deletes-list': 'danger',
  'removes-many-items': 'danger',
  'list-kind-changed': 'error',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof ListFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of these codes. */
export const finding = findingsOf(ListFindings);
