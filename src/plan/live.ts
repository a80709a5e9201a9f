/**
 * The live state of a zone as the planner sees it. These are the v4 API's JSON shapes (snake_case,
 * as the service returns them), so providers pass what they read straight through; the engine
 * produces the same shapes. Each kind adds its sections to `LiveZone` and the optional sections it
 * may leave unread to `LiveSectionRegistry` (`<kind>/live.ts`, by `declare module`), so this file
 * names none of them. Only `plan` and `providers` use these types.
 */

import type { PlanTier } from '../api/index.js';

/** Plan tiers of a zone (`src/api`). */
export { PlanTiers, type PlanTier } from '../api/index.js';

/** A zone's identity. */
export interface LiveZoneInfo {
  id: string;
  name: string;
  /** Known for the embedded engine and `zonewall serve`; may be absent on other services. */
  plan?: PlanTier;
  /** The account the zone belongs to (its lists are the ones its rules' `$name`s see), when the service says. */
  account?: { id: string; name: string };
}

/**
 * Sections of a zone that a read may leave out when neither the manifest nor the zone's status
 * needs them; kinds add theirs. A section left out is `null` (or undefined) in the `LiveZone`, and
 * `LiveZone.sections` says which were read.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface LiveSectionRegistry {}

/** One optional section of a zone. */
export type LiveSection = keyof LiveSectionRegistry & string;

/** Everything the planner needs to know about one zone, read in one pass; kinds add their sections. */
export interface LiveZone {
  zone: LiveZoneInfo;
  /** The optional sections this read asked for; absent means all of them. */
  sections?: readonly LiveSection[];
}

/**
 * A phase entry point ruleset as every Rulesets API write answers it: what the writes of any rules
 * phase need from the answer (its id, version, and each rule's id and ref).
 */
export interface LiveRuleset<R extends { id?: string; ref?: string } = { id?: string; ref?: string }> {
  id: string;
  name: string;
  description?: string;
  kind: string;
  phase: string;
  version: string;
  last_updated?: string;
  rules: R[];
}

/** Where a single-rule POST or PATCH puts the rule (exactly one key; 1-based `index`): `src/api`'s. */
export type { RulePosition } from '../api/index.js';
