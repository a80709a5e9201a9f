/**
 * Effective priorities of firewall rules, and their checks. Key order is evaluation order: a rule
 * without `priority` gets the previous rule's effective priority + 1 (the first gets 1); an explicit
 * priority wins; `priority: null` means "after every prioritised rule". Three things would silently
 * break the key-order promise, so they are errors: an implicit priority past the maximum; an implicit
 * priority equal to another rule's (the service orders equal priorities by action, not by key); and a
 * rule without priority after a `priority: null` rule (it would run before it).
 */
import type { DocPath } from '../errors.js';
import { ManifestLimits } from '../limits.js';
import { entriesOf, type Checks, type Entries } from '../view.js';

/**
 * The effective priorities of a rule list, by index in the list: two flat lists, not an object per
 * rule (1,000 rules per zone, kept while the zone's manifest is checked and normalised).
 */
export interface EffectivePriorities {
  readonly priority: readonly (number | null)[];
  /** 1 where the priority is derived from key order (no `priority` field). */
  readonly implicit: Uint8Array;
}

/** `effectivePriorities` by rule list: the check and normalisation both ask for the same `entriesOf` list. */
const prioritiesMemo = new WeakMap<Entries, EffectivePriorities>();

/**
 * Computes effective priorities in key order; an invalid `priority` value counts as absent. The
 * result is shared between callers with the same (never changed) list: never change it.
 */
export function effectivePriorities(rules: Entries): EffectivePriorities {
  let known = prioritiesMemo.get(rules);
  if (known === undefined) {
    known = computePriorities(rules);
    prioritiesMemo.set(rules, known);
  }
  return known;
}

function computePriorities(rules: Entries): EffectivePriorities {
  const count = rules.keys.length;
  const priority = new Array<number | null>(count);
  const implicit = new Uint8Array(count);
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const p = rules.values[i].priority;
    if (p === null) {
      priority[i] = null;
    } else if (typeof p === 'number' && Number.isInteger(p) && p >= ManifestLimits.minPriority && p <= ManifestLimits.maxPriority) {
      previous = p;
      priority[i] = p;
    } else {
      previous += 1;
      priority[i] = previous;
      implicit[i] = 1;
    }
  }
  return { priority, implicit };
}

/** Checks the effective priorities of `firewall_rules`. */
export function checkPriorities(checks: Checks, data: Record<string, unknown>): void {
  const rules = entriesOf(data.firewall_rules, checks);
  const { priority, implicit } = effectivePriorities(rules);
  // The first rule of each priority (its index), to find equal ones; none needed when they only
  // grow (the usual case: key order), which a 1,000-entry map per zone would only confirm.
  const holder = onlyGrowing(priority, implicit) ? undefined : new Map<number, number>();
  let nullRule: string | undefined;
  for (let i = 0; i < priority.length; i++) {
    const p = priority[i];
    const key = rules.keys[i];
    if (p === null) {
      nullRule ??= key;
      continue;
    }
    if (implicit[i] === 1 && p > ManifestLimits.maxPriority) {
      checks.report(rulePath(key), `its implicit priority (previous rule's + 1) is ${p}, above the maximum `
        + `${ManifestLimits.maxPriority}: give it an explicit priority`);
      continue;
    }
    if (implicit[i] === 1 && nullRule !== undefined) {
      checks.report(rulePath(key), `has no priority but comes after firewall_rules.${nullRule}, which has priority: null; `
        + `it would run before that rule: move it above, or set priority: null or a number here`);
    }
    if (holder === undefined) continue;
    const other = holder.get(p);
    if (other === undefined) {
      holder.set(p, i);
    } else if (implicit[i] === 1 || implicit[other] === 1) {
      checks.report(rulePath(key), samePriorityMessage(checks, p, implicit[i] === 1, rules.keys[other], implicit[other] === 1));
    }
  }
}

/**
 * True when the priorities `checkPriorities` compares (numbers, except implicit ones past the
 * maximum, which it reports and skips) are strictly increasing in key order: then no two are equal.
 */
function onlyGrowing(priority: readonly (number | null)[], implicit: Uint8Array): boolean {
  let last = -Infinity;
  for (let i = 0; i < priority.length; i++) {
    const p = priority[i];
    if (p === null || (implicit[i] === 1 && p > ManifestLimits.maxPriority)) continue;
    if (p <= last) return false;
    last = p;
  }
  return true;
}

/** The path of a rule, for its issues (made when reported: most rules have none). */
function rulePath(key: string): DocPath {
  return ['firewall_rules', key];
}

/** The message for a rule (priority `p`) whose priority another rule (`otherKey`) already has. */
function samePriorityMessage(checks: Checks, p: number, implicit: boolean, otherKey: string, otherImplicit: boolean): string {
  const where = `firewall_rules.${otherKey} (line ${checks.lineOf(['firewall_rules', otherKey])})`;
  const mine = implicit ? `gets priority ${String(p)} from key order (previous rule's + 1)` : `has priority ${String(p)}`;
  const theirs = otherImplicit ? 'gets from key order' : 'has';
  return `${mine}, which ${where} also ${theirs}; the service runs equal priorities in action order, `
    + 'not key order: give the rules distinct priorities';
}
