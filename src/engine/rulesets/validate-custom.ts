/**
 * Validation of WAF custom rules (`http_request_firewall_custom`): one rule's fields (action,
 * expression, description, ref, enabled, logging) and its `action_parameters` per action: `block`
 * takes an optional custom `response` (all three keys, status 400..499, a known content type, at
 * most 2 KB), `skip` takes at least one of `ruleset: "current"`, `phase: "current"` (with `products`
 * only), `phases`, `products`; the challenges
 * and `log` take none. Problems are collected with JSON pointers so one refusal lists them all;
 * plan gates and the rule quota are checked apart (`custom-entitlements.ts`).
 */
import {
  BlockContentTypes,
  CustomPhase,
  CustomRuleActions,
  RulesetFieldLimits,
  SkipPhases,
  SkipProducts,
  type BlockResponse,
  type CustomRuleAction,
  type CustomSkipParameters,
} from '../../api/index.js';
import { BodyReader, Problems, jsonType, quote } from '../body-reader.js';
import { OtherRuleActions, RulesetRuleFields } from './constants.js';
import { addProblem } from './errors.js';
import type { CustomParameters, CustomRuleInput } from './types.js';
import { readCommonRuleFields, type ExpressionCheck } from './validate.js';

/** Reads one custom rule at `pointer`; `extra` are further allowed keys (`position`). */
export function readCustomRule(item: unknown, pointer: string, problems: Problems, checkExpression: ExpressionCheck, extra: readonly string[] = []): CustomRuleInput | undefined {
  const r = new BodyReader(item, pointer, problems, 'a rule object');
  if (!r.valid) return undefined;
  r.allowOnly([...RulesetRuleFields, ...extra]);
  const action = readAction(r, problems);
  const common = readCommonRuleFields(r, problems, checkExpression);
  const logging = readLogging(r, action, problems);
  const before = problems.list.length;
  const params = action === undefined ? undefined : readParameters(r, action, problems);
  if (action === undefined || common === undefined || problems.list.length > before) return undefined;
  const rule: CustomRuleInput = { action, ...common };
  if (params !== undefined) rule.action_parameters = params;
  if (logging !== undefined) rule.logging = logging;
  return rule;
}

function readAction(r: BodyReader, problems: Problems): CustomRuleAction | undefined {
  const action = r.string('action', { required: true });
  if (action === undefined) return undefined;
  if ((CustomRuleActions as readonly string[]).includes(action)) return action as CustomRuleAction;
  const allowed = CustomRuleActions.join(', ');
  const why = action === 'execute'
    ? 'zone custom rulesets (execute) are not served by zonewall\'s engine'
    : (OtherRuleActions as readonly string[]).includes(action) || action === 'allow' || action === 'bypass'
      ? `it is not an action of the ${CustomPhase} phase${action === 'allow' ? ' (use skip with {"ruleset": "current"})' : action === 'bypass' ? ' (use skip with {"products": [...]})' : ''}`
      : 'it is not a ruleset action';
  addProblem(problems, 'badAction', `action ${quote(action)} is refused: ${why}; custom rules take ${allowed}`, r.at('action'));
  return undefined;
}

function readLogging(r: BodyReader, action: CustomRuleAction | undefined, problems: Problems): { enabled: boolean } | undefined {
  if (!r.has('logging')) return undefined;
  const l = new BodyReader(r.raw('logging'), r.at('logging'), problems);
  if (!l.valid) return undefined;
  l.allowOnly(['enabled']);
  const enabled = l.boolean('enabled');
  if (!l.has('enabled')) problems.add(l.at('enabled'), 'enabled is required in logging (true or false)');
  if (action !== undefined && action !== 'skip') {
    problems.add(r.at('logging'), `logging is only valid on skip rules (whether skipped requests are logged); this rule's action is ${action}`);
    return undefined;
  }
  return enabled === undefined ? undefined : { enabled };
}

function readParameters(r: BodyReader, action: CustomRuleAction, problems: Problems): CustomParameters | undefined {
  const at = r.at('action_parameters');
  if (action === 'skip') {
    if (!r.has('action_parameters')) {
      problems.add(at, 'action_parameters is required for skip: {"ruleset": "current"}, {"phases": [...]} and/or {"products": [...]}');
      return undefined;
    }
    return readSkip(r.raw('action_parameters'), at, problems);
  }
  if (!r.has('action_parameters')) return undefined;
  const raw = r.raw('action_parameters');
  if (action === 'block') return readBlock(raw, at, problems);
  const empty = typeof raw === 'object' && raw !== null && !Array.isArray(raw) && Object.keys(raw).length === 0;
  if (!empty) addProblem(problems, 'badAction', `${action} takes no action_parameters (only block and skip do)`, at);
  return undefined;
}

function readBlock(value: unknown, pointer: string, problems: Problems): CustomParameters | undefined {
  const r = new BodyReader(value, pointer, problems);
  if (!r.valid) return undefined;
  r.allowOnly(['response']);
  if (!r.has('response')) return undefined;
  const p = new BodyReader(r.raw('response'), r.at('response'), problems, 'a response object');
  if (!p.valid) return undefined;
  p.allowOnly(['status_code', 'content_type', 'content']);
  if (!p.has('status_code')) problems.add(p.at('status_code'), 'status_code is required (400 to 499)');
  const status = p.number('status_code', { min: 400, max: 499 });
  if (typeof status === 'number' && !Number.isInteger(status)) problems.add(p.at('status_code'), `status_code must be an integer from 400 to 499; got ${status}`);
  const type = p.string('content_type', { required: true });
  if (type !== undefined && !(BlockContentTypes as readonly string[]).includes(type)) {
    problems.add(p.at('content_type'), `content_type must be one of ${BlockContentTypes.join(', ')}; got ${quote(type)}`);
  }
  const content = p.string('content', { required: true });
  const bytes = content === undefined ? 0 : Buffer.byteLength(content, 'utf8');
  if (bytes > RulesetFieldLimits.responseContent) problems.add(p.at('content'), `content is ${bytes} bytes; the limit is ${RulesetFieldLimits.responseContent}`);
  if (typeof status !== 'number' || type === undefined || content === undefined) return undefined;
  return { response: { status_code: status, content_type: type as BlockResponse['content_type'], content } };
}

function readSkip(value: unknown, pointer: string, problems: Problems): CustomSkipParameters | undefined {
  const r = new BodyReader(value, pointer, problems);
  if (!r.valid) return undefined;
  for (const key of ['rulesets', 'rules']) {
    if (r.has(key)) addProblem(problems, 'badAction', `skip ${key} is not served by zonewall's engine in the ${CustomPhase} phase; use ruleset, phases or products`, r.at(key));
  }
  r.allowOnly(['ruleset', 'phases', 'products', 'phase', 'rulesets', 'rules']);
  const out: CustomSkipParameters = {};
  if (r.has('ruleset')) {
    if (r.raw('ruleset') !== 'current') problems.add(r.at('ruleset'), `ruleset must be "current" (skip the remaining custom rules); got ${quote(r.raw('ruleset'))}`);
    else out.ruleset = 'current';
  }
  const phase = readPhase(r, problems);
  if (phase !== undefined) out.phase = phase;
  const phases = readNames(r, 'phases', SkipPhases, problems);
  if (phases !== undefined) out.phases = phases;
  const products = readNames(r, 'products', SkipProducts, problems);
  if (products !== undefined) out.products = products;
  if (!r.has('ruleset') && !r.has('phase') && !r.has('phases') && !r.has('products')) {
    problems.add(pointer, 'a skip rule needs at least one of ruleset ("current"), phase ("current"), phases or products');
  }
  return out;
}

/** `phase: "current"` (skip the rest of the custom phase), which combines only with `products`. */
function readPhase(r: BodyReader, problems: Problems): 'current' | undefined {
  if (!r.has('phase')) return undefined;
  if (r.raw('phase') !== 'current') {
    return void problems.add(r.at('phase'), `phase must be "current" (skip the rest of the ${CustomPhase} phase); got ${quote(r.raw('phase'))}; to skip later phases use phases`);
  }
  const others = ['ruleset', 'phases'].filter((k) => r.has(k));
  if (others.length > 0) return void problems.add(r.at('phase'), `phase "current" combines only with products; drop ${others.join(' and ')}`);
  return 'current';
}

function readNames<T extends string>(r: BodyReader, key: string, allowed: readonly T[], problems: Problems): T[] | undefined {
  if (!r.has(key)) return undefined;
  const raw = r.raw(key);
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add(r.at(key), `${key} must be a non-empty array of ${allowed.join(', ')}; got ${Array.isArray(raw) ? 'an empty array' : jsonType(raw)}`);
    return undefined;
  }
  const out: T[] = [];
  raw.forEach((item, i) => {
    const at = `${r.at(key)}/${i}`;
    if (typeof item !== 'string' || !(allowed as readonly string[]).includes(item)) problems.add(at, `${quote(item)} is not one of ${allowed.join(', ')} (case-sensitive)`);
    else if (out.includes(item as T)) problems.add(at, `${item} is listed twice`);
    else out.push(item as T);
  });
  return out;
}
