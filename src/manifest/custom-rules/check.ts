/**
 * Checks of `custom_rules`: every rule's expression, and what the JSON Schema cannot state: which
 * `action_parameters` go with which action (a block `response` only with block, the skip fields
 * only with skip, and a skip needs at least one of them), `logging` only with skip, and the block
 * response body's byte limit.
 * These are the service's rules (reference/custom-rules.md §3), checked offline so a plan never
 * fails on them at apply time.
 */
import { RulesetFieldLimits } from '../../api/index.js';
import type { DocPath } from '../errors.js';
import { checkEntryExpression, type CheckedExpression } from '../expression-check.js';
import { entriesOf, isRecord, type Checks } from '../view.js';

/** The skip fields of `action_parameters`. */
const SkipFields = ['ruleset', 'phase', 'phases', 'products'] as const;
/** The service's limit on a custom block response body (bytes). */
export const BlockResponseBytes = RulesetFieldLimits.responseContent;

/**
 * Checks every custom rule's expression (phase `http_request_firewall_custom`, the default one);
 * returns the valid ones by index of the rule in the list of `entriesOf`.
 */
export function checkCustomExpressions(checks: Checks, data: Record<string, unknown>): (CheckedExpression | undefined)[] {
  const { keys, values } = entriesOf(data.custom_rules, checks);
  // Sized up front: filled in index by index, a list of 1,000 grows through a dozen copies.
  const valid = new Array<CheckedExpression | undefined>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const checked = checkEntryExpression(checks, values[i].expression, 'custom_rules', keys[i]);
    if (checked !== undefined) valid[i] = checked;
  }
  return valid;
}

/** Checks every custom rule's fields against its action. */
export function checkCustomRules(checks: Checks, data: Record<string, unknown>): void {
  const { keys, values } = entriesOf(data.custom_rules, checks);
  for (let i = 0; i < keys.length; i++) {
    const rule = values[i];
    const base: DocPath = ['custom_rules', keys[i]];
    if (!checks.isClean(base) || typeof rule.action !== 'string') continue;
    checkParameters(checks, base, rule.action, isRecord(rule.action_parameters) ? rule.action_parameters : undefined);
    if (rule.logging !== undefined && rule.action !== 'skip') {
      checks.report([...base, 'logging'], `logging is for skip rules only (this rule's action is ${rule.action}); remove it`, 'key');
    }
  }
}

function checkParameters(checks: Checks, base: DocPath, action: string, params: Record<string, unknown> | undefined): void {
  const at = (field: string): DocPath => [...base, 'action_parameters', field];
  if (action === 'skip') {
    if (params === undefined || !SkipFields.some((f) => params[f] !== undefined)) {
      checks.report(params === undefined ? [...base, 'action'] : [...base, 'action_parameters'],
        'a skip rule needs action_parameters with at least one of ruleset: current, phase: current, phases, products');
    }
    if (params?.response !== undefined) checks.report(at('response'), 'response is for block rules only; a skip rule sends no response', 'key');
    return;
  }
  if (params === undefined) return;
  for (const f of SkipFields) {
    if (params[f] !== undefined) checks.report(at(f), `${f} is for skip rules only (this rule's action is ${action})`, 'key');
  }
  if (params.response !== undefined && action !== 'block') {
    checks.report(at('response'), `response is for block rules only (this rule's action is ${action})`, 'key');
  }
  const response = isRecord(params.response) ? params.response : undefined;
  if (typeof response?.content === 'string') {
    const bytes = new TextEncoder().encode(response.content).length;
    if (bytes > BlockResponseBytes) checks.report([...at('response'), 'content'], `content is ${bytes} bytes long; the service accepts at most ${BlockResponseBytes}`);
  }
}
