/**
 * Validation of Page Rule bodies (POST and PUT take the whole rule, PATCH any non-empty subset):
 * exactly one URL target with the `matches` operator and a pattern in the zone (`url.ts`); at least
 * one action, each of the served ids (`disable_security` takes no value, `waf` takes `on`/`off`) at
 * most once; an integer `priority` of at least 1; `status` `active` or `disabled`. Every reason is
 * collected with the field's pointer (`/actions/0/id`), then thrown as 1004 errors.
 */
import { BodyReader, jsonType, type Problems } from '../body-reader.js';
import {
  PageRuleActionIds, PageRuleLimits, PageRuleOperators, PageRuleStatuses, PageRuleTargetKinds,
  type PageRuleAction, type PageRuleInput, type PageRuleTarget,
} from './constants.js';
import { patternProblems } from './url.js';

const Fields = ['targets', 'actions', 'priority', 'status'] as const;

/** Reads a body; `patch` makes every field optional (but one is needed). Undefined when not an object. */
export function readPageRule(body: unknown, zone: string, problems: Problems, patch: boolean): Partial<PageRuleInput> | undefined {
  const r = new BodyReader(body, '', problems, 'a Page Rule (a JSON object)');
  if (!r.valid) return undefined;
  r.allowOnly([...Fields, 'id', 'created_on', 'modified_on']);
  const out: Partial<PageRuleInput> = {};
  if (r.has('targets')) {
    const targets = readTargets(r.raw('targets'), zone, problems);
    if (targets) out.targets = targets;
  } else if (!patch) problems.add('/targets', 'targets is required: [{"target": "url", "constraint": {"operator": "matches", "value": "example.com/admin/*"}}]');
  if (r.has('actions')) {
    const actions = readActions(r.raw('actions'), problems);
    if (actions) out.actions = actions;
  } else if (!patch) problems.add('/actions', 'actions is required: e.g. [{"id": "disable_security"}] or [{"id": "waf", "value": "off"}]');
  const priority = r.number('priority', { min: PageRuleLimits.priorityMin, max: 2147483647 });
  if (typeof priority === 'number') {
    if (Number.isInteger(priority)) out.priority = priority;
    else problems.add('/priority', `priority must be an integer, got ${priority}`);
  }
  const status = r.oneOf('status', PageRuleStatuses);
  if (status !== undefined) out.status = status;
  if (patch && !Fields.some((f) => r.has(f))) problems.add('/', `give at least one of ${Fields.join(', ')}`);
  return out;
}

function readTargets(v: unknown, zone: string, problems: Problems): PageRuleTarget[] | undefined {
  if (!Array.isArray(v) || v.length !== 1) {
    problems.add('/targets', `targets must be an array of exactly one URL target, got ${Array.isArray(v) ? `${v.length} items` : jsonType(v)}`);
    return undefined;
  }
  const t = new BodyReader(v[0], '/targets/0', problems, 'a target object');
  if (!t.valid) return undefined;
  t.allowOnly(['target', 'constraint']);
  t.oneOf('target', PageRuleTargetKinds, { required: true });
  const c = new BodyReader(t.raw('constraint'), '/targets/0/constraint', problems, 'a constraint object {"operator": "matches", "value": "..."}');
  if (!c.valid) return undefined;
  c.allowOnly(['operator', 'value']);
  c.oneOf('operator', PageRuleOperators, { required: true });
  const value = c.string('value', { required: true });
  if (value !== undefined) for (const p of patternProblems(value, zone)) problems.add('/targets/0/constraint/value', p);
  if (value === undefined) return undefined;
  return [{ target: 'url', constraint: { operator: 'matches', value } }];
}

function readActions(v: unknown, problems: Problems): PageRuleAction[] | undefined {
  if (!Array.isArray(v) || v.length === 0) {
    problems.add('/actions', `actions must be a non-empty array of actions, got ${Array.isArray(v) ? 'an empty array' : jsonType(v)}`);
    return undefined;
  }
  const out: PageRuleAction[] = [];
  v.forEach((item, i) => {
    const action = readAction(item, `/actions/${i}`, problems);
    if (action === undefined) return;
    if (out.some((a) => a.id === action.id)) problems.add(`/actions/${i}/id`, `action ${action.id} is given twice`);
    else out.push(action);
  });
  return out;
}

function readAction(item: unknown, at: string, problems: Problems): PageRuleAction | undefined {
  const a = new BodyReader(item, at, problems, 'an action object {"id": ..., "value": ...}');
  if (!a.valid) return undefined;
  const id = a.string('id', { required: true });
  if (id === undefined) return undefined;
  if (!(PageRuleActionIds as readonly string[]).includes(id)) {
    problems.add(`${at}/id`, `unknown action ${JSON.stringify(id)}: zonewall's engine serves the Page Rules actions ${PageRuleActionIds.join(' and ')}`);
    return undefined;
  }
  if (id === 'disable_security') {
    a.allowOnly(['id']);
    return { id };
  }
  a.allowOnly(['id', 'value']);
  const value = a.oneOf('value', ['on', 'off'] as const, { required: true });
  return value === undefined ? undefined : { id: 'waf', value };
}
