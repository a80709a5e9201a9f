/**
 * The checks of `zonewall validate` as a linter: every finding has a stable rule id, a level and a
 * line of documentation (docs/manifest.md#lint-checks). Errors are what makes a manifest invalid
 * (schema, expressions, references, plan tiers, quotas); the `ZW1xx` checks are warnings that only
 * a tool with zonewall's expression machinery can make, and never make a manifest invalid.
 */

/** A SARIF level: `error` fails validation, `warning` and `note` do not. */
export type LintLevel = 'error' | 'warning' | 'note';

/** One check. */
export interface LintRule {
  id: string;
  name: string;
  level: LintLevel;
  /** One line: what it finds. */
  description: string;
}

/** Every check, by id. */
export const LintRules = {
  invalid: { id: 'ZW001', name: 'invalid-manifest', level: 'error', description: 'The manifest is invalid: YAML, schema, expression, reference, priority, plan tier or quota error.' },
  retired: { id: 'ZW101', name: 'retired-field', level: 'warning', description: 'An expression uses a field the service has retired (cf.threat_score is always 0).' },
  unreachable: { id: 'ZW102', name: 'unreachable-rule', level: 'warning', description: 'A custom rule can never decide: an earlier enabled rule with a terminating action matches every request it matches.' },
  ipShadowed: { id: 'ZW103', name: 'shadowed-ip-range', level: 'warning', description: 'A custom rule\'s IP addresses are all inside the wider range of an earlier enabled terminating rule, so it never decides.' },
  duplicate: { id: 'ZW104', name: 'duplicate-condition', level: 'warning', description: 'The same condition appears twice in one and/or (`a and a`): one of them does nothing.' },
  contradiction: { id: 'ZW105', name: 'contradictory-condition', level: 'warning', description: 'A condition and its negation in one `and` (never matches) or one `or` (always matches).' },
  idleSkip: { id: 'ZW106', name: 'skip-skips-nothing', level: 'warning', description: 'A custom skip rule that only skips the custom rules after it (ruleset or phase `current`) and no enabled custom rule follows it: the service accepts it and it skips nothing.' },
} as const satisfies Record<string, LintRule>;

/** All checks, in id order. */
export const AllLintRules: readonly LintRule[] = Object.values(LintRules);
