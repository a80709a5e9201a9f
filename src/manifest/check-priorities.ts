/**
 * Effective priorities of firewall rules, and their checks. Key order is evaluation order: a rule
 * without `priority` gets the previous rule's effective priority + 1 (the first gets 1); an explicit
 * priority wins; `priority: null` means "after every prioritised rule". Three things would silently
 * break the key-order promise, so they are errors: an implicit priority past the maximum; an implicit
 * priority equal to another rule's (the service orders equal priorities by action, not by key); and a
 * rule without priority after a `priority: null` rule (it would run before it).
 */
import type { DocPath } from './errors.js';
import { ManifestLimits } from './limits.js';
import { entriesOf, type Checks, type Entries } from './view.js';

/** One rule's effective priority. */
export interface EffectivePriority {
  key: string;
  priority: number | null;
  /** True when derived from key order (no `priority` field). */
  implicit: boolean;
}

/** `effectivePriorities` by rule list: the check and normalisation both ask for the same `entriesOf` list. */
const prioritiesMemo = new WeakMap<Entries, EffectivePriority[]>();

/**
 * Computes effective priorities in key order; an invalid `priority` value counts as absent. The
 * result is shared between callers with the same (never changed) list: never change it.
 */
export function effectivePriorities(rules: Entries): readonly EffectivePriority[] {
  let known = prioritiesMemo.get(rules);
  if (known === undefined) {
    known = computePriorities(rules);
    prioritiesMemo.set(rules, known);
  }
  return known;
}

function computePriorities(rules: Entries): EffectivePriority[] {
  let previous = 0;
  return rules.keys.map((key, i) => {
    const p = rules.values[i].priority;
    if (p === null) return { key, priority: null, implicit: false };
    if (typeof p === 'number' && Number.isInteger(p) && p >= ManifestLimits.minPriority && p <= ManifestLimits.maxPriority) {
      previous = p;
      return { key, priority: p, implicit: false };
    }
    previous += 1;
    return { key, priority: previous, implicit: true };
  });
}

/** Checks the effective priorities of `firewall_rules`. */
export function checkPriorities(checks: Checks, data: Record<string, unknown>): void {
  const priorities = effectivePriorities(entriesOf(data.firewall_rules, checks));
  // The first rule of each priority, to find equal ones; none needed when they only grow (the
  // usual case: key order), which a 1,000-entry map per zone would only confirm.
  const holder = onlyGrowing(priorities) ? undefined : new Map<number, EffectivePriority>();
  let nullRule: string | undefined;
  for (let i = 0; i < priorities.length; i++) {
    const r = priorities[i];
    if (r.priority === null) {
      nullRule ??= r.key;
      continue;
    }
    if (r.implicit && r.priority > ManifestLimits.maxPriority) {
      checks.report(rulePath(r), `its implicit priority (previous rule's + 1) is ${r.priority}, above the maximum `
        + `${ManifestLimits.maxPriority}: give it an explicit priority`);
      continue;
    }
    if (r.implicit && nullRule !== undefined) {
      checks.report(rulePath(r), `has no priority but comes after firewall_rules.${nullRule}, which has priority: null; `
        + `it would run before that rule: move it above, or set priority: null or a number here`);
    }
    if (holder === undefined) continue;
    const other = holder.get(r.priority);
    if (other === undefined) {
      holder.set(r.priority, r);
    } else if (r.implicit || other.implicit) {
      checks.report(rulePath(r), samePriorityMessage(checks, r, other));
    }
  }
}

/**
 * True when the priorities `checkPriorities` compares (numbers, except implicit ones past the
 * maximum, which it reports and skips) are strictly increasing in key order: then no two are equal.
 */
function onlyGrowing(priorities: readonly EffectivePriority[]): boolean {
  let last = -Infinity;
  for (let i = 0; i < priorities.length; i++) {
    const { priority, implicit } = priorities[i];
    if (priority === null || (implicit && priority > ManifestLimits.maxPriority)) continue;
    if (priority <= last) return false;
    last = priority;
  }
  return true;
}

/** The path of a rule, for its issues (made when reported: most rules have none). */
function rulePath(r: EffectivePriority): DocPath {
  return ['firewall_rules', r.key];
}

function samePriorityMessage(checks: Checks, r: EffectivePriority, other: EffectivePriority): string {
  const where = `firewall_rules.${other.key} (line ${checks.lineOf(['firewall_rules', other.key])})`;
  const mine = r.implicit ? `gets priority ${String(r.priority)} from key order (previous rule's + 1)` : `has priority ${String(r.priority)}`;
  const theirs = other.implicit ? 'gets from key order' : 'has';
  return `${mine}, which ${where} also ${theirs}; the service runs equal priorities in action order, `
    + 'not key order: give the rules distinct priorities';
}
