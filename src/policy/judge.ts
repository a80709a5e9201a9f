/**
 * Judges a case: compares what was expected with the verdict and says, in one sentence per
 * expectation that did not hold, what happened instead (and which rule did it). The rules:
 *
 * | expectation                 | holds when                                                        |
 * |-----------------------------|-------------------------------------------------------------------|
 * | `action: <terminating>`     | the final action is that action                                   |
 * | `action: log`/`bypass`/`skip` | a rule with that action matched and the request was not stopped |
 * | `allowed: true`             | no final action, or `allow` (the request reaches the origin)      |
 * | `allowed: false`            | a final action other than `allow` (blocked or challenged)         |
 * | `matched: [a, b]`           | each name is a matched rule, or the ruleset/package of one        |
 * | `matched: []`               | no rule matched                                                   |
 */
import type { CaseExpectation, CaseResult, TestCase, Verdict } from './types.js';

const NonTerminating = new Set(['log', 'bypass', 'skip']);
/** Matched rules a `why` line spells out when none decided (the JSON view lists them all). */
const MaxWhyMatches = 3;

function reachesOrigin(v: Verdict): boolean {
  return v.action === null || v.action === 'allow';
}

/** What happened, in words: `block by firewall_rules.x`, `no action (the request reaches the origin)`. */
export function outcomeText(v: Verdict): string {
  if (v.action === null) return 'no action (the request reaches the origin)';
  return v.rule === null ? v.action : `${v.action} by ${v.rule}`;
}

function matchedText(v: Verdict): string {
  return v.matched.length === 0 ? 'nothing matched' : `matched: ${v.matched.map((m) => m.name).join(', ')}`;
}

/** The expectations of `expect` that `v` does not meet, one sentence each. */
export function failuresOf(expect: CaseExpectation, v: Verdict): string[] {
  const out: string[] = [];
  if (expect.action !== undefined) {
    if (NonTerminating.has(expect.action)) {
      const hit = v.matched.some((m) => m.action === expect.action);
      if (!hit || !reachesOrigin(v)) {
        out.push(hit ? `expected action ${expect.action} and the request to go on, got ${outcomeText(v)}` : `expected a rule with action ${expect.action} to match, ${matchedText(v)}`);
      }
    } else if (v.action !== expect.action) {
      out.push(`expected action ${expect.action}, got ${outcomeText(v)}`);
    }
  }
  if (expect.allowed !== undefined && expect.allowed !== reachesOrigin(v)) {
    out.push(expect.allowed ? `expected the request to be allowed, got ${outcomeText(v)}` : `expected the request to be stopped, got ${outcomeText(v)}`);
  }
  if (expect.matched !== undefined) {
    if (expect.matched.length === 0 && v.matched.length > 0) out.push(`expected no rule to match, ${matchedText(v)}`);
    const names = new Set(v.matched.flatMap((m) => m.aliases));
    const missing = expect.matched.filter((n) => !names.has(n));
    if (missing.length > 0) out.push(`expected ${missing.join(', ')} to match, ${matchedText(v)}`);
  }
  return out;
}

/** Why the zone acted as it did: the deciding rule and its expression, or the rules that matched. */
export function whyOf(v: Verdict): string {
  const decider = v.rule === null ? undefined : v.matched.find((m) => m.name === v.rule);
  let why: string;
  if (decider !== undefined) why = `${decider.name} (${decider.action}): ${decider.detail}`;
  else if (v.matched.length > 0) {
    const shown = v.matched.slice(0, MaxWhyMatches).map((m) => `${m.name} (${m.action}): ${m.detail}`);
    const more = v.matched.length - shown.length;
    why = `no rule stopped the request; ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
  }
  else why = 'no rule matched the request';
  return v.notes.length > 0 ? `${why}; ${v.notes.join('; ')}` : why;
}

/** The result of one case given the zone's verdict on its request. */
export function judgeCase(c: TestCase, v: Verdict): CaseResult {
  const failures = failuresOf(c.expect, v);
  return {
    name: c.name,
    pass: failures.length === 0,
    expected: c.expect,
    actual: { action: v.action, decided_by: v.decided_by, rule: v.rule, matched: v.matched.map((m) => m.name) },
    why: whyOf(v),
    failures,
    location: c.location,
  };
}
