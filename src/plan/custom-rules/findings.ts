/**
 * The finding codes of this kind, and its finding builder (which also builds the shared codes of
 * `finding.ts`):
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `disables-custom-rule` | danger | a custom rule that stops traffic (block or a challenge) is disabled |
 * | `skips-managed-rules` | danger | a custom skip rule starts skipping the `http_request_firewall_managed` phase |
 * | `skip-above-block` | danger | a custom skip of the remaining rules now runs before a rule that stops traffic and ran before it |
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** This kind's finding codes and their levels. */
export const CustomFindings = {
  'disables-custom-rule': 'danger',
  'skips-managed-rules': 'danger',
  'skip-above-block': 'danger',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof CustomFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of this kind's codes or the shared ones; the level comes from the code. */
export const finding = findingsOf(CustomFindings);
