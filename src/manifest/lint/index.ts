/** The manifest linter: check ids and levels, and the checks only zonewall's expression machinery can make. */
export { AllLintRules, LintRules, type LintLevel, type LintRule } from './rules.js';
export { lintZone, type LintFinding } from './lint.js';
export { covers, conditionFindings, type Cover, type ConditionFinding } from './cover.js';
