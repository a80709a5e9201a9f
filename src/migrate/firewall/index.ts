/**
 * Filters + firewall rules -> WAF custom rules, client side: the conversion (as the service's
 * upgrade did it) and the rewrite of a manifest's sections.
 */
export { convertFirewallRules } from './convert.js';
// The order of the conversion, kept under the names the first version exported here.
export { FirewallActionPrecedence, firewallEvaluationOrder as evaluationOrder } from '../../manifest/index.js';
export type { ConversionFinding, ConversionFindingKind, ConversionSource, FirewallConversion, FirewallConversionInput } from './convert.js';
export { ConvertedComment, convertedEntries, rewriteFirewallRules } from './rewrite.js';
export type { FirewallRewrite } from './rewrite.js';
export { hasFirewallRules, upgradeFirewallManifest } from './upgrade.js';
export type { FirewallUpgrade } from './upgrade.js';
export { rewriteCases } from './cases.js';
export type { CustomRefOf } from './cases.js';
export { CutoverSteps, cutoverSteps, removalOrder, resumeStep } from './cutover.js';
export type { CutoverStep, CutoverStepName } from './cutover.js';
export { hclString, renderCustomRulesetHcl, renderTerraformFinish } from './terraform.js';
export type { TerraformFinishInput } from './terraform.js';
