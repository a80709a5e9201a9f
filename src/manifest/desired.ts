/**
 * Desired state: what a manifest asks for, normalised so the planner can compare it with the live
 * zone without knowing YAML. Keys of the manifest become `ref`s; expressions are in canonical form
 * (`format(parse(x))` of `src/expr`); defaults are filled in. Produced by `normalize.ts`. The zone
 * and its tier are here; each kind defines its objects and adds its fields to `DesiredZone` in its
 * folder (`<kind>/desired.ts`, by `declare module`), so this file names none of them.
 */
import type { SourceLocation } from './source-location.js';

export type { SourceLocation } from './source-location.js';

/** Plan tiers of a zone (the same words as the service). */
export type DesiredPlanTier = 'free' | 'pro' | 'business' | 'enterprise';

/** One zone's desired state; each kind adds its fields. */
export interface DesiredZone {
  /** The manifest file. */
  file: string;
  /** Zone name or id. */
  zone: string;
  /** Plan tier used when the embedded engine creates the zone (`plan:` in the manifest). */
  plan?: DesiredPlanTier;
  /** Location of top-level sections, for errors about a whole section. */
  locations: Record<string, SourceLocation>;
}
