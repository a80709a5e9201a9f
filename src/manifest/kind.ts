/**
 * The interface a kind implements in the manifest layer. A kind (firewall, custom rules, managed
 * rules, ...) owns one or more top-level sections of the YAML; the core stages of validation call
 * every kind, in the order of `kinds.ts`, once per manifest: its expressions are checked first (what
 * the check finds valid is handed back to its `normalize`), then its checks the JSON Schema cannot
 * state, then it writes its part of the desired zone, and, once the zone's plan tier is known, it
 * reports what the tier does not allow. Dispatch is per section, never per entry: a kind walks its
 * own entries with its own loops.
 */
import type { DesiredPlanTier, DesiredZone, SourceLocation } from './desired.js';
import type { DocPath } from './errors.js';
import type { Checks } from './view.js';

/** What the kinds' tier checks report into: the tier, and where to add an issue. */
export interface TierReport {
  readonly tier: DesiredPlanTier;
  /**
   * Which WAF the zone runs, when known: `previous` (not migrated), `new` (migrated), `unknown`
   * (a plan that did not read the migration state). Undefined offline (`validate --plan`): a zone
   * of the tier as it is created, Pro and Business on the previous WAF.
   */
  readonly waf?: 'previous' | 'new' | 'unknown';
  /** `(the zone is on the pro plan)`, the end of most messages. */
  readonly on: string;
  /** Adds an issue at `location` (the entry's own when the field's is unknown) for `path`. */
  readonly add: (location: SourceLocation | undefined, path: DocPath, message: string) => void;
}

/**
 * One kind of managed object, as the manifest sees it. `E`: what its expression check hands to its
 * normalisation (the valid expressions by entry), opaque to the core.
 */
export interface ManifestKind<E = unknown> {
  /** The kind's name, and its folder's. */
  readonly name: string;
  /** The top-level YAML sections it owns, in the manifest's order of sections. */
  readonly sections: readonly string[];
  /** Checks the expressions of its sections (the first stage after the schema); returns the valid ones. */
  checkExpressions?(checks: Checks, data: Record<string, unknown>): E;
  /** Checks what the JSON Schema cannot state (references, duplicates, rules between fields). */
  check?(checks: Checks, data: Record<string, unknown>): void;
  /** Writes its part of `zone` from checked data, leaving out entries that failed a check. */
  normalize(zone: DesiredZone, checks: Checks, data: Record<string, unknown>, expressions: E): void;
  /** Reports what the zone's plan tier does not allow in its part of `desired`. */
  checkTier?(desired: DesiredZone, report: TierReport): void;
}
