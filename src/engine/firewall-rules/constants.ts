/**
 * Words and limits of the firewall rules API (api-facts.md §3), from the wire contract
 * (`../../api/firewall-rules.ts`): the actions in precedence order, the products a `bypass` rule
 * can skip, field limits, body fields and the priority range.
 */
export {
  BypassProducts, FilterReferenceFields, FirewallActions, FirewallRuleLimits, RuleCreateFields, RuleUpdateFields,
  type BypassProduct, type FirewallAction,
} from '../../api/index.js';
