/**
 * The equivalence proof of a rewrite: the same requests go through the manifest before and after
 * (each as the engine's trace evaluators see it, the offline zone models of `zonewall test`) and
 * every request whose verdict differs is listed with both verdicts. The requests are the zone's
 * `zonewall test` cases and a corpus generated from every expression of both manifests.
 *
 * Two verdicts are the same when the request meets the same end (the same terminating action by
 * the same rule, or the origin: a firewall rule's `allow` and a request no rule stops both reach
 * it) and the same firewall and custom rules matched on the way, in the same order (managed and
 * previous WAF rules count only when they decide: one that adds to a score is no verdict). Rules are compared by name, with
 * `firewall_rules.<key>` of the old manifest standing for the custom rule it became
 * (`renames`, default: the same key under `custom_rules`).
 */
import { CustomPhase } from '../../api/index.js';
import type { Lists } from '../../expr/index.js';
import type { DesiredZone } from '../../manifest/index.js';
import type { TraceRequest } from '../../providers/index.js';
import { modelNames, requestContext, traceOfflineIn, traceRequestOf, withZoneHost } from '../offline.js';
import { verdictOf } from '../verdict.js';
import type { TestCase, Verdict } from '../types.js';
import { buildZoneModel, type ZoneModel } from '../zone-model.js';
import { generateCorpus } from './corpus.js';

/** What the proof compares. */
export interface EquivalenceInput {
  before: DesiredZone;
  after: DesiredZone;
  /** The zone's `zonewall test` cases (their requests only are used: the proof compares, it does not judge). */
  cases?: readonly TestCase[];
  /** Firewall rule key -> the custom rule key it became, where they differ. */
  renames?: ReadonlyMap<string, string>;
  /** What `$name` resolves to (the account manifest's lists, as `zonewall test` reads them); without them a list matches nothing. */
  lists?: Lists;
}

/** A verdict as the proof reports it. */
export interface ProofVerdict {
  /** The final action, or null when the request reaches the origin. */
  action: string | null;
  decided_by: Verdict['decided_by'];
  rule: string | null;
  /** Names of every rule that matched, in evaluation order. */
  matched: string[];
}

/** One request whose verdict differs. */
export interface ProofDifference {
  source: 'case' | 'generated';
  /** The case's name, or what the generated request tests. */
  name: string;
  request: TraceRequest;
  before: ProofVerdict;
  after: ProofVerdict;
}

/** The proof's answer. */
export interface EquivalenceProof {
  /** Requests from the zone's cases. */
  cases: number;
  /** Requests generated from the expressions. */
  generated: number;
  /** Expressions the corpus was built from. */
  expressions: number;
  differences: ProofDifference[];
}

/** The phase both generations' expressions are parsed in. */
const Phase = CustomPhase;

function expressionsOf(zone: DesiredZone): string[] {
  return [...zone.filters.map((f) => f.expression), ...(zone.customRules ?? []).map((r) => r.expression)];
}

function summary(v: Verdict): ProofVerdict {
  return { action: v.action, decided_by: v.decided_by, rule: v.rule, matched: v.matched.map((m) => m.name) };
}

/** Rules of the two generations being compared (a WAF rule that only adds to a score is not a verdict). */
const compared = (name: string) => name.startsWith('firewall_rules.') || name.startsWith('custom_rules.');

/** The comparable form of a verdict, old names mapped to the new ones. */
function keyOf(v: ProofVerdict, rename: (name: string) => string): string {
  const end = v.action === null || v.action === 'allow' ? 'origin' : `${v.action} by ${v.rule === null ? '' : rename(v.rule)}`;
  return `${end} | ${v.matched.filter(compared).map(rename).join(',')}`;
}

/**
 * Runs the proof.
 * @example const proof = proveEquivalence({ before: old, after: rewritten, cases });
 */
export function proveEquivalence(input: EquivalenceInput): EquivalenceProof {
  const before = buildZoneModel(input.before, input.lists);
  const after = buildZoneModel(input.after, input.lists);
  const renames = input.renames ?? new Map<string, string>();
  const rename = (name: string) => {
    if (!name.startsWith('firewall_rules.')) return name;
    const key = name.slice('firewall_rules.'.length);
    return `custom_rules.${renames.get(key) ?? key}`;
  };
  const expressions = new Set([...expressionsOf(input.before), ...expressionsOf(input.after)]);
  const corpus = generateCorpus(expressions, Phase, input.lists, reorderedPairs(sequenceOf(before, rename), sequenceOf(after, rename)));
  const differences: ProofDifference[] = [];
  const check = compare(before, after, rename, differences);
  for (const c of input.cases ?? []) check('case', c.name, traceRequestOf(c, input.before.zone));
  for (const g of corpus) check('generated', g.name, withZoneHost(g.request, input.before.zone));
  return { cases: input.cases?.length ?? 0, generated: corpus.length, expressions: expressions.size, differences };
}

/** One rule of a model in evaluation order (firewall rules, then custom rules), by its compared name. */
interface Sequenced { name: string; expression: string; action: string }

/** The rules of `model` that can match, in evaluation order, named as verdicts compare them. */
function sequenceOf(model: ZoneModel, rename: (name: string) => string): Sequenced[] {
  const out: Sequenced[] = [];
  for (const { rule, filter } of model.rules) if (filter !== undefined) out.push({ name: rename(`firewall_rules.${rule.ref ?? rule.id}`), expression: filter.expression, action: rule.action });
  for (const r of model.customRules?.rules ?? []) if (r.ref !== undefined) out.push({ name: `custom_rules.${r.ref}`, expression: r.expression, action: r.action });
  return out;
}

/** Actions that end the request where they match: what a later rule does then never shows. */
const Ending = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);

/** Later rules each rule that lets the request go on (allow, log, bypass, skip) is tried with. */
const LaterTried = 8;

/**
 * Pairs of expressions whose witnesses the proof also tries together: only a request two rules
 * both match shows their order, and what one rule's allow, skip or log does to the other.
 * - Every two rules both sides have whose order differs (a before b on one side, b before a on the
 *   other), each side's expressions.
 * - A rule that lets the request go on (on either side: `allow` ends the firewall rules, `log`
 *   does not, a conversion must keep which) with the next `LaterTried` rules after it on both
 *   sides: the first of them a request can match with it shows what it does to the rest.
 * A rule one side lacks differs on its own witness. Bounded: the order's differences and eight
 * pairs a rule, not every pair (a zone of 1,000 rules would be half a million requests).
 */
export function reorderedPairs(before: readonly Sequenced[], after: readonly Sequenced[]): [string, string][] {
  const at = new Map<string, number>();
  after.forEach((r, i) => { if (!at.has(r.name)) at.set(r.name, i); });
  const common = before.filter((r) => at.has(r.name));
  const afterOf = new Map(after.map((r) => [r.name, r]));
  const pairs: [string, string][] = [];
  const both = (a: Sequenced, b: Sequenced) => {
    pairs.push([a.expression, b.expression]);
    const [a2, b2] = [afterOf.get(a.name)!, afterOf.get(b.name)!];
    if (a2.expression !== a.expression || b2.expression !== b.expression) pairs.push([a2.expression, b2.expression]);
  };
  for (let i = 0; i < common.length; i++) {
    const a = common[i]!;
    const goesOn = !Ending.has(a.action) || !Ending.has(afterOf.get(a.name)!.action);
    let tried = 0;
    for (let j = i + 1; j < common.length; j++) {
      const b = common[j]!;
      const reordered = at.get(a.name)! > at.get(b.name)!;
      if (reordered) both(a, b);
      else if (goesOn && tried < LaterTried) {
        both(a, b);
        tried++;
      }
    }
  }
  return pairs;
}

function compare(before: ZoneModel, after: ZoneModel, rename: (n: string) => string, out: ProofDifference[]) {
  const namesBefore = modelNames(before);
  const namesAfter = modelNames(after);
  return (source: ProofDifference['source'], name: string, request: TraceRequest): void => {
    // One context for both generations: the request's fields are made once per case (each
    // expression was compiled once per run, by the zone models and the trace's cache).
    const context = requestContext(request, before.lists);
    const b = summary(verdictOf(traceOfflineIn(before, context), namesBefore));
    const a = summary(verdictOf(traceOfflineIn(after, context), namesAfter));
    if (keyOf(b, rename) !== keyOf(a, rename)) out.push({ source, name, request, before: b, after: a });
  };
}
