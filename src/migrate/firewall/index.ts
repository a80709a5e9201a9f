/**
 * Filters + firewall rules -> WAF custom rules, client side: the conversion (as the service's
 * upgrade did it) and the rewrite of a manifest's sections.
 */
export { FirewallActionPrecedence, convertFirewallRules, evaluationOrder } from './convert.js';
export type { ConversionFinding, ConversionFindingKind, FirewallConversion, FirewallConversionInput } from './convert.js';
