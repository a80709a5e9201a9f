/**
 * Validation of a PUT of the `http_request_firewall_managed` entry point: the body's shape, every
 * rule's action, expression, description, ref, enabled flag and logging, with `action_parameters`
 * checked by `validate-parameters.ts`. Every problem is collected with a JSON pointer so one refusal
 * lists all of them. Expressions are checked by the function given (the engine's `src/expr` use).
 *
 * Read-only fields a GET returns (`id`, `version`, `last_updated` of the ruleset; `version`,
 * `last_updated` of rules) are accepted and ignored, so a GET body can be sent back; `kind` and
 * `phase` must then match. A rule's `id` and `ref` are kept to match existing rules (ids stay stable
 * across PUTs, see `identity.ts`); empty strings, as the migration config has them, mean absent.
 */
import type { ServedPhase } from '../../api/index.js';
import { ExpressionError, parse } from '../../expr/index.js';
import { apiMessage } from '../api-errors.js';
import { BodyReader, Problems, jsonType, quote } from '../body-reader.js';
import type { ApiMessage } from '../types.js';
import { EntrypointActions, EntrypointFields, EntrypointLimits, OtherRuleActions, RulesetRuleFields } from './constants.js';
import { addProblem } from './errors.js';
import { ManagedPhase, type EntrypointInput, type RuleInput } from './types.js';
import { readExecuteParameters, readSkipParameters } from './validate-parameters.js';

/** Checks one expression; returns the refusal message, or undefined when it is valid. */
export type ExpressionCheck = (source: string, pointer: string) => ApiMessage | undefined;

/** The expression check of a phase: its fields and functions (`src/expr`), errors as 10015 with position. */
export function expressionCheck(phase: ServedPhase): ExpressionCheck {
  return (source, pointer) => {
    try {
      parse(source, { phase });
      return undefined;
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      return apiMessage('invalidExpression', err.message, { pointer, meta: { line: err.line, column: err.column, offset: err.offset, reason: err.reason } });
    }
  };
}

/** Reads one rule of a body at `pointer` (the phase's rule reader). */
export type RuleReader<I> = (item: unknown, pointer: string, problems: Problems, checkExpression: ExpressionCheck) => I | undefined;

/** A validated PUT (or create) body of either phase. */
export interface RulesetBody<I> {
  name?: string;
  description?: string;
  rules: I[];
}

/** Reads a PUT body of the managed entry point; problems are recorded (the caller throws them). */
export function readEntrypointBody(body: unknown, problems: Problems, checkExpression: ExpressionCheck): EntrypointInput | undefined {
  return readRulesetBody(body, problems, ManagedPhase, readManagedRule, checkExpression);
}

/**
 * Reads a PUT body of the entry point of `phase` with the phase's rule reader. `kind` and `phase`
 * may be sent back as read (immutable: any other value is refused, 20212); `name` is returned
 * for the caller, which alone knows whether it may be set (on creation) or must match.
 */
export function readRulesetBody<I extends { id?: string; ref?: string }>(
  body: unknown, problems: Problems, expectedPhase: string, read: RuleReader<I>, checkExpression: ExpressionCheck,
): RulesetBody<I> | undefined {
  const r = new BodyReader(body, '', problems, 'a ruleset object with rules');
  if (!r.valid) return undefined;
  r.allowOnly(EntrypointFields);
  const kind = r.string('kind');
  if (kind !== undefined && kind !== 'zone') addProblem(problems, 'immutableField', `kind of a zone entry point is "zone" and cannot change; got ${quote(kind)}`, '/kind');
  const phase = r.string('phase');
  if (phase !== undefined && phase !== expectedPhase) addProblem(problems, 'immutableField', `phase is ${expectedPhase} (the ruleset's phase) and cannot change; got ${quote(phase)}`, '/phase');
  const name = r.string('name', { maxLength: EntrypointLimits.name });
  const description = r.string('description', { maxLength: EntrypointLimits.description });
  if (!r.has('rules')) {
    problems.add('/rules', 'rules is required (an array; an empty array removes every rule)');
    return undefined;
  }
  const raw = r.raw('rules');
  if (!Array.isArray(raw)) {
    problems.add('/rules', `rules must be an array, got ${jsonType(raw)}`);
    return undefined;
  }
  if (raw.length > EntrypointLimits.rules) problems.add('/rules', `rules has ${raw.length} rules; the limit is ${EntrypointLimits.rules}`);
  const rules = raw.map((item, i) => read(item, `/rules/${i}`, problems, checkExpression));
  checkDuplicates(rules, problems);
  const input: RulesetBody<I> = { rules: rules.filter((x): x is I => x !== undefined) };
  if (name !== undefined) input.name = name;
  if (description !== undefined) input.description = description;
  return input;
}

/** Reads one rule of the managed entry point at `pointer`; `extra` are further allowed keys (`position`). */
export function readManagedRule(item: unknown, pointer: string, problems: Problems, checkExpression: ExpressionCheck, extra: readonly string[] = []): RuleInput | undefined {
  const r = new BodyReader(item, pointer, problems, 'a rule object');
  if (!r.valid) return undefined;
  r.allowOnly([...RulesetRuleFields, ...extra]);
  const action = readAction(r, pointer, problems);
  const common = readCommonRuleFields(r, problems, checkExpression);
  const logging = readLogging(r, action, problems);
  const params = action === undefined ? undefined : readParameters(r, action, pointer, problems);
  if (action === undefined || common === undefined || params === undefined) return undefined;
  const rule: RuleInput = { action, ...common, action_parameters: params };
  if (logging !== undefined) rule.logging = logging;
  return rule;
}

/** The fields every rule has, whatever its phase and action (empty `id` / `ref` mean absent). */
export interface CommonRuleFields {
  expression: string;
  description: string;
  enabled: boolean;
  id?: string;
  ref?: string;
}

/**
 * Reads a rule's common fields (the read-only `version` and `last_updated` are type-checked and
 * ignored); undefined when the expression is missing or refused (the problems are recorded).
 */
export function readCommonRuleFields(r: BodyReader, problems: Problems, checkExpression: ExpressionCheck): CommonRuleFields | undefined {
  const expression = r.string('expression', { required: true, nonEmpty: true, maxLength: EntrypointLimits.expression });
  const refused = expression === undefined ? undefined : checkExpression(expression, r.at('expression'));
  if (refused !== undefined) problems.list.push(refused);
  const description = r.string('description', { maxLength: EntrypointLimits.ruleDescription }) ?? '';
  const ref = r.string('ref', { maxLength: EntrypointLimits.ref });
  const id = r.string('id');
  r.string('version');
  r.string('last_updated');
  const enabled = r.boolean('enabled') ?? true;
  if (expression === undefined || refused !== undefined) return undefined;
  const out: CommonRuleFields = { expression, description, enabled };
  if (id !== undefined && id !== '') out.id = id;
  if (ref !== undefined && ref !== '') out.ref = ref;
  return out;
}

function readAction(r: BodyReader, pointer: string, problems: Problems): RuleInput['action'] | undefined {
  const action = r.string('action', { required: true });
  if (action === undefined) return undefined;
  if ((EntrypointActions as readonly string[]).includes(action)) return action as RuleInput['action'];
  const where = `${pointer}/action`;
  if ((OtherRuleActions as readonly string[]).includes(action)) {
    addProblem(problems, 'badAction',
      `action ${quote(action)} is not allowed in the ${ManagedPhase} phase, which takes execute (deploy a managed ruleset) and skip (an exception); put ${action} rules in a custom rule or a firewall rule`, where);
  } else {
    addProblem(problems, 'badAction', `unknown action ${quote(action)}: the ${ManagedPhase} phase takes execute or skip`, where);
  }
  return undefined;
}

function readLogging(r: BodyReader, action: string | undefined, problems: Problems): { enabled: boolean } | undefined {
  if (!r.has('logging')) return undefined;
  const l = new BodyReader(r.raw('logging'), r.at('logging'), problems);
  if (!l.valid) return undefined;
  l.allowOnly(['enabled']);
  const enabled = l.boolean('enabled');
  if (!l.has('enabled')) problems.add(l.at('enabled'), 'enabled is required in logging (true or false)');
  if (action === 'execute') {
    problems.add(r.at('logging'), 'logging is only valid on skip rules (it controls whether skipped requests are logged)');
    return undefined;
  }
  return enabled === undefined ? undefined : { enabled };
}

function readParameters(r: BodyReader, action: RuleInput['action'], pointer: string, problems: Problems): RuleInput['action_parameters'] | undefined {
  if (!r.has('action_parameters')) {
    problems.add(`${pointer}/action_parameters`, action === 'execute'
      ? 'action_parameters is required for execute: {"id": "<managed ruleset id>"}'
      : 'action_parameters is required for skip: {"ruleset": "current"}, {"rulesets": [...]} or {"rules": {...}}');
    return undefined;
  }
  const at = `${pointer}/action_parameters`;
  return action === 'execute' ? readExecuteParameters(r.raw('action_parameters'), at, problems) : readSkipParameters(r.raw('action_parameters'), at, problems);
}

function checkDuplicates(rules: ({ id?: string; ref?: string } | undefined)[], problems: Problems): void {
  const refs = new Map<string, number>();
  const ids = new Map<string, number>();
  rules.forEach((rule, i) => {
    if (rule?.ref !== undefined) {
      if (refs.has(rule.ref)) addProblem(problems, 'duplicateRef', `ref ${quote(rule.ref)} is also used by rule ${refs.get(rule.ref)}; refs must be unique within a ruleset`, `/rules/${i}/ref`);
      else refs.set(rule.ref, i);
    }
    if (rule?.id !== undefined) {
      if (ids.has(rule.id)) problems.add(`/rules/${i}/id`, `id ${rule.id} is also used by rule ${ids.get(rule.id)}; ids must be unique`);
      else ids.set(rule.id, i);
    }
  });
}
