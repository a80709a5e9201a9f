/**
 * The manifest's public surface: the Desired types (the contract with the planner); loading and
 * validating manifests (`loadManifests`, `validateManifestText`); plan-tier checks for the planner
 * (`checkAgainstZone`); errors and their formatting; the schema and its generated types; the
 * "did you mean" and JSON-pointer helpers policy tests' cases files reuse for their own errors.
 */
export * from './desired.js';
export { aliasNote } from './source-location.js';
export { ManifestError, formatIssue, formatIssueWithExcerpt, formatPath, compareIssues } from './errors.js';
export { encodingIssue } from './encoding.js';
export type { ManifestIssue, DocPath } from './errors.js';
export { validateManifestText } from './validate.js';
export type { ManifestResult, ValidateOptions } from './validate.js';
export { loadManifest, loadManifestFile, loadManifests, requireManifests, expandPaths, duplicateZoneIssue } from './load.js';
export type { LoadResult, PathLoadResult } from './load.js';
export { checkAgainstZone } from './tier.js';
export { manifestSchema, pointerToPath } from './schema.js';
// Shared with the cases files of policy tests, which report their errors the same way.
export { closest } from './suggest.js';
export { MergeKeyMessage } from './schema-messages.js';
export { ManifestLimits } from './limits.js';
export { nestingMessage, tooDeep, yamlTokens } from './yaml-depth.js';
export { readPlainYaml } from './read.js';
export { builtModule } from './built-module.js';
export { inOrder } from './in-order.js';
export { checkedKeyOf } from './expression-check.js';
export * from './kinds.js';
export type * from './generated/manifest-types.js';
export { AllLintRules, LintRules, lintZone, covers, conditionFindings, type LintFinding, type LintLevel, type LintRule } from './lint/index.js';
export type { DesiredAccount, DesiredList, DesiredListItem, ListReference } from './lists/desired.js';
export { validateAccountManifestText, isAccountManifestText, accountManifestSchema } from './lists/account.js';
export type { AccountResult, AccountOptions } from './lists/account.js';
export { checkListReferences, accountLists, noLists } from './lists/check-references.js';
export type { VisibleLists } from './lists/check-references.js';
export { findAccountManifest, isAccountManifestFile } from './lists/find.js';
