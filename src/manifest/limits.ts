/**
 * Limits the manifest enforces before anything reaches a zone, whatever the kind. They are the
 * service's own limits (reference/api-facts.md §2, §3; `src/api` where it states them), checked
 * offline so that a plan never fails on them at apply time. The JSON Schema states the same numbers;
 * these are the ones code compares against. Limits of one kind (quotas per tier) are in its folder.
 */
import { FilterLimits, FirewallRuleLimits } from '../api/index.js';

/** The service's limits on what a manifest declares. */
export const ManifestLimits = {
  /** A key becomes the live object's `ref`, which holds at most 50 characters. */
  keyLength: FilterLimits.ref,
  /** `description` of filters and firewall rules. */
  descriptionLength: FilterLimits.description,
  /** Maximum expression length accepted by the API (characters). */
  expressionLength: FilterLimits.expression,
  /** Firewall rule priorities are 1..2147483647. */
  minPriority: 1,
  maxPriority: FirewallRuleLimits.priorityMax,
  /** YAML nesting deeper than this is refused (no manifest needs more than ~8 levels). */
  maxDepth: 64,
  /** Nodes that aliases may expand to, in total: stops "billion laughs" documents. */
  maxAliasNodes: 10_000,
} as const;
