/**
 * The migration from the previous WAF to the ruleset-based WAF, client side: the seed's mapping,
 * the equivalence report, the manifest rewrite, the API sequence, the status, the deletion of
 * URI-based overrides, and the conversion of Terraform state into a manifest.
 */
export * from './constants.js';
export { MigrationError } from './errors.js';
export {
  OwaspSensitivityTable, catalogFromLive, groupCategory, mapActionMode, mapOwaspPackage, mapPreviousWaf,
  mapVendorRule, mapVendorRuleMode, withLiveSettings,
} from './mapping.js';
export type {
  ActionMode, ManualItem, MappingResult, OwaspEquivalent, PackageKind, PreviousWafCatalog, ManifestPreviousWafSettings,
  RuleBehaviour, Sensitivity, SensitivityRow, VendorGroupEquivalent, VendorRuleEquivalent,
} from './mapping.js';
export { effectiveOwasp, owaspOverrides, readOwaspOverrides, thresholdLevel, describeThreshold } from './owasp.js';
export type { OwaspSettings, OwaspReading } from './owasp.js';
export { rulesetAlias, toManifestEntry, toManifestManagedRules } from './managed-rules.js';
export { compactOverrides, desiredBody, proposalBody } from '../plan/index.js';
export type { ManagedRuleEntry } from './managed-rules.js';
export { buildReport } from './report.js';
export type { Blocker, EquivalenceReport, EquivalenceRow, Verdict } from './report.js';
export { renderBlockers, renderReport } from './report-text.js';
export { MigratedComment, manifestDiff, rewriteManifest } from './rewrite.js';
export type { RewriteChanges } from './rewrite.js';
export { runMigration, wafStateOf } from './sequence.js';
export type { MigrateEvents, MigrateInput, MigrateOutcome, MigrationMode } from './sequence.js';
export type { BodySource } from '../plan/index.js';
export { WafStateLabels, readMigrationStatus, renderMigrationStatus } from './status.js';
export type { MigrationStatusReport } from './status.js';
export { deleteUriOverrides } from './overrides.js';
export type { OverrideDeletion } from './overrides.js';
export { parseTerraformState } from './terraform-state.js';
export type { TfResource, TfState, TfStateFormat } from './terraform-state.js';
export { TerraformKinds, convertTerraform, kindOf } from './terraform-convert.js';
export type { ConversionNote, ConvertedManifest, Sourced, TerraformKind } from './terraform-convert.js';
export { terraformAdoption } from './terraform-adopt.js';
export type { TerraformAdoption } from './terraform-adopt.js';
export { checkConvertedAccountManifest, checkConvertedManifest, renderConversionReport, renderConvertedManifest } from './terraform-render.js';
export { renderAccountManifest } from './terraform-lists.js';
export type { ConvertedList, ConvertedListItem, ConvertedLists } from './terraform-lists.js';
export { FirewallActionPrecedence, convertFirewallRules, evaluationOrder } from './firewall/index.js';
export type { ConversionFinding, ConversionFindingKind, ConversionSource, FirewallConversion, FirewallConversionInput, FirewallRewrite } from './firewall/index.js';
export { ConvertedComment, rewriteFirewallRules } from './firewall/index.js';
export { hasFirewallRules, upgradeFirewallManifest } from './firewall/index.js';
export { CutoverSteps, cutoverSteps, removalOrder, resumeStep } from './firewall/index.js';
export { hclString, renderCustomRulesetHcl, renderTerraformFinish } from './firewall/index.js';
export type { CutoverStep, CutoverStepName } from './firewall/index.js';
export type { FirewallUpgrade } from './firewall/index.js';
export { rewriteCases } from './firewall/index.js';
