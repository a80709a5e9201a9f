/**
 * Filters + firewall rules -> WAF custom rules, as the service's upgrade did it
 * (reference/custom-rules.md §4): the firewall rules' evaluation order (priority ascending, no
 * priority last, ties by action precedence, then key: `compareFirewallRules`) becomes the custom rules' list order;
 * `allow` becomes a skip of the remaining custom rules, `bypass` a skip of the same products;
 * the terminating actions and `log` keep their name; `paused` becomes `enabled: false`; the
 * rule's `ref` and description carry over and each rule gets its own copy of its filter's
 * expression. What cannot be carried over exactly is reported as a finding, by name.
 */
import { SkipProducts } from '../../api/index.js';
import { firewallEvaluationOrder, inOrder } from '../../manifest/index.js';
import type {
  DesiredCustomParameters, DesiredCustomRule, DesiredFilter, DesiredFirewallRule,
} from '../../manifest/index.js';

/** How exactly a rule carried over: `cannot-carry` blocks a write without `--force`. */
export type ConversionFindingKind = 'cannot-carry' | 'approximate' | 'note';

/** One thing the conversion could not (or did not literally) carry over, named by the firewall rule's ref. */
export interface ConversionFinding {
  /** `firewall_rules.<key>` or `filters.<key>`. */
  ref: string;
  kind: ConversionFindingKind;
  message: string;
}

/** Where a converted custom rule came from. */
export interface ConversionSource {
  /** The firewall rule's key (its ref). */
  ruleKey: string;
  /** Its filter's ref (the rule's key for an inline filter). */
  filterRef: string;
}

/** The custom rules in evaluation order, and what did not carry over exactly. */
export interface FirewallConversion {
  customRules: DesiredCustomRule[];
  findings: ConversionFinding[];
  /** custom rule ref -> the firewall rule and filter it came from. */
  sources: Map<string, ConversionSource>;
}

/** What to convert; `reservedRefs` are refs of custom rules the zone already has (a converted rule may not take one). */
export interface FirewallConversionInput {
  filters: readonly DesiredFilter[];
  firewallRules: readonly DesiredFirewallRule[];
  reservedRefs?: ReadonlySet<string>;
}

/**
 * Converts filters + firewall rules into custom rules in evaluation order.
 * @example const { customRules, findings } = convertFirewallRules({ filters: d.filters, firewallRules: d.firewallRules });
 */
export function convertFirewallRules(input: FirewallConversionInput): FirewallConversion {
  const filters = new Map(input.filters.map((f) => [f.ref, f]));
  const findings: ConversionFinding[] = [];
  const customRules: DesiredCustomRule[] = [];
  const taken = new Set(input.reservedRefs ?? []);
  const sources = new Map<string, ConversionSource>();
  for (const rule of firewallEvaluationOrder(input.firewallRules)) {
    const converted = convertRule(rule, filters.get(rule.filterRef), findings);
    if (converted === undefined) continue;
    converted.ref = freeRef(rule.ref, taken, findings);
    taken.add(converted.ref);
    sources.set(converted.ref, { ruleKey: rule.ref, filterRef: rule.filterRef });
    customRules.push(converted);
  }
  const used = new Set(input.firewallRules.map((r) => r.filterRef));
  for (const f of input.filters) {
    if (!used.has(f.ref)) findings.push({ ref: `filters.${f.ref}`, kind: 'note', message: 'no firewall rule uses this filter: it goes without a custom rule' });
  }
  return { customRules, findings, sources };
}

function convertRule(rule: DesiredFirewallRule, filter: DesiredFilter | undefined, findings: ConversionFinding[]): DesiredCustomRule | undefined {
  const name = `firewall_rules.${rule.ref}`;
  if (filter === undefined) {
    findings.push({ ref: name, kind: 'cannot-carry', message: `its filter ${rule.filterRef} does not exist, so the rule matches nothing; it is left out` });
    return undefined;
  }
  const action = actionOf(rule, name, findings);
  if (action === undefined) return undefined;
  const out: DesiredCustomRule = {
    ref: rule.ref,
    action: action.action,
    expression: filter.expression,
    description: rule.description !== '' ? rule.description : filter.description,
    enabled: !rule.paused && !filter.paused,
    location: rule.location,
    fieldLocations: { ...rule.fieldLocations, expression: filter.fieldLocations?.expression ?? filter.location },
  };
  if (action.parameters !== undefined) out.actionParameters = action.parameters;
  if (out.action === 'skip') out.logging = { enabled: true };
  if (rule.renamedFrom !== undefined) {
    findings.push({ ref: name, kind: 'note', message: `renamed_from: ${rule.renamedFrom} goes: it names a live firewall rule, and the custom rule is a new object` });
  }
  if (!rule.paused && filter.paused) {
    findings.push({
      ref: name, kind: 'note',
      message: `its filter ${filter.ref} is paused, so the rule never ran: it becomes a disabled custom rule (the service's upgrade ignored a filter's pause and enabled it)`,
    });
  }
  return out;
}

function actionOf(rule: DesiredFirewallRule, name: string, findings: ConversionFinding[]): { action: DesiredCustomRule['action']; parameters?: DesiredCustomParameters } | undefined {
  switch (rule.action) {
    case 'allow':
      findings.push({
        ref: name, kind: 'note',
        message: 'allow becomes a skip of the remaining custom rules; the WAF managed rules and the previous WAF still run for its requests, as they did after an allow on the service (and in every zonewall evaluator)',
      });
      return { action: 'skip', parameters: { ruleset: 'current' } };
    case 'bypass':
      return bypassOf(rule, name, findings);
    default:
      return { action: rule.action };
  }
}

/** `bypass` skips the same products; a product without an equivalent is named and dropped. */
function bypassOf(rule: DesiredFirewallRule, name: string, findings: ConversionFinding[]): { action: 'skip'; parameters: DesiredCustomParameters } | undefined {
  const known = new Set<string>(SkipProducts);
  const carried = rule.products.filter((p) => known.has(p));
  for (const p of rule.products) {
    if (!known.has(p)) findings.push({ ref: name, kind: 'cannot-carry', message: `bypass of product ${p} has no custom rules equivalent (skip products: ${SkipProducts.join(', ')})` });
  }
  if (carried.length === 0) {
    findings.push({ ref: name, kind: 'cannot-carry', message: 'bypass with no product that custom rules can skip: the rule is left out' });
    return undefined;
  }
  return { action: 'skip', parameters: { products: inOrder(carried, SkipProducts) } };
}

/** The rule's ref, or the first `<ref>-N` no other custom rule holds. */
function freeRef(ref: string, taken: ReadonlySet<string>, findings: ConversionFinding[]): string {
  if (!taken.has(ref)) return ref;
  let n = 2;
  while (taken.has(`${ref}-${n}`)) n++;
  findings.push({ ref: `firewall_rules.${ref}`, kind: 'note', message: `custom_rules.${ref} already exists: the converted rule is custom_rules.${ref}-${n}` });
  return `${ref}-${n}`;
}
