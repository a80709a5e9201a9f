/**
 * The fields every rule of a ruleset carries, in both phases zonewall serves: what the server fills
 * (id, version, last update, ref), the expression, description and enabled flag, and the `logging`
 * of skip rules. The managed phase's rules (`managed-rules.ts`) and the custom phase's
 * (`custom-rules.ts`) extend them; the rulesets and request bodies (`rulesets.ts`) are built on all three.
 */

/** Read-only fields the server fills on every rule. */
export interface RuleServerFields {
  /** 32 hex; kept across versions and across PUTs that send it (or the rule's `ref`). */
  id: string;
  /** String in JSON (`"2"`); +1 per content change, not bumped by a move. */
  version: string;
  /** ISO-8601 UTC. */
  last_updated: string;
  /** The client's stable key, unique within the ruleset; the rule id when none was given. */
  ref: string;
}

/** `logging` of a skip rule: whether matches appear in Security Events (default true). */
export interface RuleLogging {
  enabled: boolean;
}

/** Fields every rule carries besides its action. */
export interface RuleCommonFields extends RuleServerFields {
  expression: string;
  /** Omitted by the custom phase when empty; always present ("" allowed) in the managed phase. */
  description?: string;
  enabled: boolean;
}
