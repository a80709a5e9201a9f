/**
 * Rule identity across PUTs of the entry point, as a pure function. A PUT replaces every rule, but a
 * rule that is kept keeps its id: an incoming rule is matched to an existing one by `ref` first, then
 * by `id`; unmatched rules get a new id (and `ref` = id unless given). A matched rule keeps its
 * `version` and `last_updated` when nothing about it changed and gets version + 1 and the request's
 * time otherwise; moving a rule does not count as a change (the real API: "reorder doesn't bump").
 * An `id` that is not one of the entry point's rules is refused: ids are the server's.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiMessage } from '../types.js';
import { rulesetMessage } from './errors.js';
import type { StoredRule } from './types.js';

/** A rule of a body: the stored fields without the server's, `id` and `ref` optional. */
export type IncomingRule = Omit<StoredRule, 'id' | 'ref' | 'version' | 'last_updated'> & { id?: string; ref?: string };

/** The outcome: the rules to store, whether anything changed, and refusals. */
export interface Reconciled<R extends StoredRule = StoredRule> {
  rules: R[];
  /** True when a rule was added, removed, changed or moved. */
  changed: boolean;
  errors: ApiMessage[];
}

/** Matches incoming rules to existing ones and fills the server's fields. */
export function reconcileRules<R extends StoredRule = StoredRule>(existing: readonly NoInfer<R>[], incoming: readonly IncomingRule[], now: string, newId: () => string): Reconciled<R> {
  const byRef = new Map(existing.map((r) => [r.ref, r]));
  const byId = new Map(existing.map((r) => [r.id, r]));
  const claimed = new Set<string>();
  const errors: ApiMessage[] = [];
  const rules = incoming.map((input, i) => {
    let match = input.ref !== undefined ? byRef.get(input.ref) : undefined;
    if (match !== undefined && claimed.has(match.id)) match = undefined;
    if (match === undefined && input.id !== undefined) {
      match = byId.get(input.id);
      if (match === undefined) {
        errors.push(rulesetMessage('unknownEntrypointRule', `rule id ${input.id} is not a rule of this ruleset: leave id out (or empty) to add a rule; the server assigns ids`, `/rules/${i}/id`));
      } else if (claimed.has(match.id)) {
        errors.push(rulesetMessage('unknownEntrypointRule', `rule ${input.id} is matched twice (by ref and by id); give each rule its own ref`, `/rules/${i}/id`));
        match = undefined;
      }
    }
    if (match !== undefined) claimed.add(match.id);
    return stored(input, match, now, newId) as R;
  });
  const changed = rules.length !== existing.length || rules.some((r, i) => r.id !== existing[i]!.id || r.version !== existing[i]!.version);
  return { rules, changed, errors };
}

export function stored(input: IncomingRule, match: StoredRule | undefined, now: string, newId: () => string): StoredRule {
  const { id: _id, ref: _ref, ...content } = input;
  if (match === undefined) {
    const id = newId();
    return { id, ref: input.ref ?? id, version: '1', last_updated: now, ...content };
  }
  const next: StoredRule = { id: match.id, ref: input.ref ?? match.ref, version: match.version, last_updated: match.last_updated, ...content };
  if (!sameContent(match, next)) {
    next.version = String(Number(match.version) + 1);
    next.last_updated = now;
  }
  return next;
}

/** Whether two rules are the same apart from their server fields. */
export function sameContent(a: StoredRule, b: StoredRule): boolean {
  return isDeepStrictEqual(contentOf(a), contentOf(b));
}

function contentOf(r: StoredRule): unknown {
  return { ref: r.ref, action: r.action, expression: r.expression, description: r.description, enabled: r.enabled, action_parameters: r.action_parameters, logging: r.logging, ratelimit: r.ratelimit };
}
