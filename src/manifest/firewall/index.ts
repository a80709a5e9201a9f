/**
 * The firewall kind in the manifest: `filters` and `firewall_rules` (seed 000's generation). Its
 * expressions are filter expressions (shared and inline, unique by meaning); its checks are the
 * references between keys and the effective priorities; it writes the zone's `filters` and
 * `firewallRules`. `firewallEvaluationOrder` is shared with the zone models of `policy` and `migrate`.
 */
import type { ManifestKind } from '../kind.js';
import { checkPriorities } from './check-priorities.js';
import { checkRefs } from './check-refs.js';
import { checkFirewallExpressions, type FirewallExpressions } from './expressions.js';
import { normalizeFirewall } from './normalize.js';
import { checkFirewallTier } from './tier.js';

export { FirewallActionPrecedence, firewallEvaluationOrder, type OrderedRule } from './evaluation-order.js';
export { ActiveRuleQuota } from './tier.js';

/** Filters and firewall rules. */
export const firewallKind: ManifestKind<FirewallExpressions> = {
  name: 'firewall',
  sections: ['filters', 'firewall_rules'],
  checkExpressions: checkFirewallExpressions,
  check(checks, data) {
    checkRefs(checks, data);
    checkPriorities(checks, data);
  },
  normalize: normalizeFirewall,
  checkTier: checkFirewallTier,
};
