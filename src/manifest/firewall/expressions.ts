/**
 * The expressions of `filters` and of the inline filters of `firewall_rules`: each is checked, and
 * two filters with the same expression by meaning (canonical form, sets as sets) are refused, as the
 * service would refuse the second one.
 */
import { checkEntryExpression, expressionPath, type CheckedExpression } from '../expression-check.js';
import { formatPath, type DocPath } from '../errors.js';
import { entriesOf, isRecord, type Checks, type Entries } from '../view.js';

/**
 * Valid filter expressions by index of the entry they are written in, in the lists of `entriesOf`
 * (`inline`: the inline filters of `firewall_rules`): normalisation walks the same lists, so it
 * finds each one by index, and the table is two lists instead of a map of 2,000 objects per zone.
 */
export interface FirewallExpressions {
  filters: (CheckedExpression | undefined)[];
  inline: (CheckedExpression | undefined)[];
}

/**
 * The first filter of an expression (by equivalence key) in the manifest being checked: its index in
 * the list of `filters` (`shared`) or of `firewall_rules` (an inline filter; shared filters come first).
 * Kept between manifests, in `firstFilters`, and taken over by the next manifest with the same
 * expression: a fleet's manifests repeat their expressions, and a map of 1,000 keys per manifest
 * was a tenth of what checking its expressions allocated. Numbers only: nothing of a manifest is kept.
 */
interface FirstFilter {
  /** The `checkFirewallExpressions` call it belongs to. */
  check: number;
  index: number;
  shared: boolean;
}

const firstFilters = new Map<string, FirstFilter>();
/** Bound of `firstFilters`: emptied, when past it, between manifests only (never during a check, where it would hide a duplicate). */
const FirstFilterEntries = 20_000;
let checkCount = 0;

/** Checks every filter expression, shared filters first, and duplicate filter expressions; returns the valid ones. */
export function checkFirewallExpressions(checks: Checks, data: Record<string, unknown>): FirewallExpressions {
  const shared = entriesOf(data.filters, checks);
  const rules = entriesOf(data.firewall_rules, checks);
  // Sized up front (an entry per entry of its section): filled in index by index, a list of 1,000
  // grows through a dozen copies.
  const table: FirewallExpressions = { filters: new Array(shared.keys.length), inline: new Array(rules.keys.length) };
  const check = ++checkCount;
  if (firstFilters.size >= FirstFilterEntries) firstFilters.clear();
  for (let i = 0; i < shared.keys.length; i++) {
    const checked = checkEntryExpression(checks, shared.values[i].expression, 'filters', shared.keys[i]);
    if (checked === undefined) continue;
    table.filters[i] = checked;
    firstOf(checks, checked, check, i, true, shared, rules);
  }
  for (let i = 0; i < rules.keys.length; i++) {
    const inline = rules.values[i].filter;
    if (!isRecord(inline)) continue;
    const checked = checkEntryExpression(checks, inline.expression, 'firewall_rules', rules.keys[i], false, 'filter');
    if (checked === undefined) continue;
    table.inline[i] = checked;
    firstOf(checks, checked, check, i, false, shared, rules);
  }
  return table;
}

/** Records the filter at `index` as the first of its expression, or reports it when an earlier one of this check has it. */
function firstOf(checks: Checks, checked: CheckedExpression, check: number, index: number, isShared: boolean, shared: Entries, rules: Entries): void {
  const first = firstFilters.get(checked.key);
  if (first === undefined) {
    firstFilters.set(checked.key, { check, index, shared: isShared });
    return;
  }
  if (first.check !== check) {
    first.check = check;
    first.index = index;
    first.shared = isShared;
    return;
  }
  const here = isShared ? expressionPath('filters', shared.keys[index]) : expressionPath('firewall_rules', rules.keys[index], 'filter');
  const firstPath = first.shared ? expressionPath('filters', shared.keys[first.index]) : expressionPath('firewall_rules', rules.keys[first.index], 'filter');
  checks.report(here, duplicateMessage(checks, firstPath, here));
}

function duplicateMessage(checks: Checks, first: DocPath, path: DocPath): string {
  const owner = first.slice(0, -1);
  const where = `${formatPath(owner)} (line ${checks.lineOf(owner)})`;
  const sharedFirst = first[0] === 'filters';
  const way = sharedFirst && path[0] === 'firewall_rules'
    ? `use filter: ${String(first[1])} instead`
    : 'keep one and share it between rules';
  return `same expression as ${where}; the service refuses duplicate filters: ${way}`;
}
