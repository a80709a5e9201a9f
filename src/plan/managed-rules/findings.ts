/**
 * The finding codes of this kind, and its finding builder (which also builds the shared codes of
 * `finding.ts`):
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `disables-managed-ruleset` | danger | a managed ruleset is disabled or removed from the entry point |
 * | `weakens-managed-rule` | danger | an override turns managed rules to log, disables them or raises a score threshold |
 * | `skips-managed-rules` | danger | a managed-rules exception is added or enabled: managed rules no longer inspect the requests it matches (the custom rules' code, shared) |
 * | `exception-skips-nothing` | warning | an enabled skip rule the entry point keeps stands after every execute rule it names: it skips nothing (`idle-exceptions.ts`) |
 *
 * An exception that skips more (rules, then rulesets, then `current`) or whose expression changed
 * other than by narrowing is the shared `widens-exception`.
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** This kind's finding codes and their levels. */
export const ManagedFindings = {
  'disables-managed-ruleset': 'danger',
  'weakens-managed-rule': 'danger',
  'skips-managed-rules': 'danger',
  'exception-skips-nothing': 'warning',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof ManagedFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of this kind's codes or the shared ones; the level comes from the code. */
export const finding = findingsOf(ManagedFindings);
