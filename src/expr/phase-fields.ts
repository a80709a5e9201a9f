/**
 * Which of an expression's fields a phase has: the rate limiting phase's counting expression may use
 * the response fields (it counts on the response), and the service refuses one that uses both such
 * a field and a custom list (security-phases.md §1; the service's page says custom lists: the
 * managed `$cf.*` lists are not held to it). The engine refuses it on write; the manifest check
 * reports it offline, from this one test.
 */
import type { Expression } from './ast.js';
import { inspectExpression as inspect } from './inspect.js';
import { customListUses } from './list-uses.js';
import { getField, type Phase } from './scheme.js';

/** True when `expr` (parsed from `source`) uses a custom list (`$name`, not `$cf.*`) and a field that `phase` does not have. */
export function mixesListsAndFieldsOutside(expr: Expression, source: string, phase: Phase): boolean {
  if (customListUses(expr, source).length === 0) return false;
  return [...inspect(expr).fields].some((name) => !(getField(name)?.phases ?? [phase]).includes(phase));
}
