/**
 * A burst through a zone, as a pure function of its loaded state: one request template sent many
 * times on a simulated clock (`BurstSpec`: evenly spaced over a time, or at given times; per-request
 * values of IP, path, host or headers; cached or not). Each distinct request (variant) goes once
 * through the firewall and custom rules (the phases before rate limiting; the managed phase and the
 * previous WAF run after it and are not evaluated): one they end never reaches rate limiting, and
 * one a custom skip rule sends past `http_ratelimit` is not counted. The others run, in time order,
 * through the rate limiting rules' counters (`ratelimit.ts`). The answer says, per rule, which
 * request first got which action and until when. The engine's `POST /zones/{id}/trace/burst` and
 * `zonewall test` offline run this same code.
 */
import { CustomPhase, RatelimitPhase, type BurstRuleOutcome, type BurstSpec, type BurstTrace } from '../../api/index.js';
import { ExecutionContext, requestFields, type RequestDescription, type RequestFields } from '../../expr/index.js';
import type { StoredRuleset } from '../rulesets/types.js';
import { AllDims, characteristicDims, Dim, expressionDims, variantIds, type VariantIds } from './burst-memo.js';
import { CountingPhase, counterKey, countingRules, hasCounting, prepareRequest, requestWeight, ruleAnswer, type CountingRule } from './ratelimit.js';
import { Passes, type Slot } from './ratelimit-counter.js';
import { traceCustomRules } from './custom.js';
import { traceFirewallRules } from './firewall.js';
import { TracePhases } from './matchers.js';
import type { ZoneTraceInput } from './zone.js';

/** The most requests one burst may hold. */
export const BurstLimits = { requests: 10_000_000 } as const;

/** The number of distinct requests of a burst (the length of its `vary` lists, else 1). */
export function variantCount(spec: BurstSpec): number {
  const v = spec.vary;
  if (v === undefined) return 1;
  const lists = [v.ip, v.path, v.host, ...Object.values(v.headers ?? {})].filter((l): l is string[] => l !== undefined);
  return lists.length === 0 ? 1 : lists[0]!.length;
}

/** The number of requests of a burst. */
export function requestCount(spec: BurstSpec): number {
  return spec.at !== undefined ? spec.at.length : spec.count ?? 1;
}

/** The time (ms) of request `i` (0-based). */
export function requestTime(spec: BurstSpec, i: number): number {
  if (spec.at !== undefined) return Math.round(spec.at[i]! * 1000);
  const n = spec.count ?? 1;
  return Math.round(((spec.over ?? 0) * 1000 * i) / n);
}

/** The request of variant `j`: the template with the `vary` values at index `j`. */
export function variantRequest(template: RequestDescription, spec: BurstSpec, j: number): RequestDescription {
  const v = spec.vary;
  if (v === undefined) return template;
  const r: RequestDescription = { ...template };
  if (v.ip !== undefined) r.ip = v.ip[j]!;
  if (v.path !== undefined) r.path = v.path[j]!;
  if (v.host !== undefined) r.host = v.host[j]!;
  if (v.headers !== undefined) {
    const headers: Record<string, string | readonly string[]> = { ...(template.headers ?? {}) };
    for (const [name, values] of Object.entries(v.headers)) headers[name] = values[j]!;
    r.headers = headers;
  }
  return r;
}

/** What a variant does before rate limiting: `Ended` by the firewall or custom rules, `Skipped` past it, or it runs (`Runs`). */
const Ended = 0;
const Skipped = 1;
const Runs = 2;

/** What the phases before rate limiting make of a request: the firewall rules, then the custom rules. */
function fateOf(zone: ZoneTraceInput, context: ExecutionContext): number {
  const firewall = traceFirewallRules(zone.firewallRules, context);
  // `allow` ends the firewall and custom rules only: rate limiting still runs (as in `traceZone`).
  if (firewall.rule !== null) return firewall.action === 'allow' ? Runs : Ended;
  const custom = zone.customRules === undefined ? undefined : traceCustomRules(zone.customRules, context);
  return custom?.rule != null ? Ended : custom?.skipped_phases.includes(RatelimitPhase) === true ? Skipped : Runs;
}

/** One rule that matches or counts a variant, with the variant's counter state in it. */
interface Prepared {
  rule: number;
  slot: Slot;
  applies: boolean;
  counted: boolean;
  weight: number;
}

const NoRules: Prepared[] = [];

/** How `traceBurst` reads the burst's variants. */
export interface BurstTraceOptions {
  /**
   * false: every variant's fields built and run through every expression (the plain path, which
   * the tests hold the default to); by default each expression runs once per distinct value of
   * what it reads (`burst-memo.ts`).
   */
  memo?: boolean;
}

/** Every variant through every expression. */
function preparePlain(zone: ZoneTraceInput, rules: readonly CountingRule[], template: RequestDescription, spec: BurstSpec, fates: Uint8Array): Prepared[][] {
  const out: Prepared[][] = [];
  for (let j = 0; j < fates.length; j++) {
    const fields = requestFields(variantRequest(template, spec, j));
    const context = new ExecutionContext(fields);
    fates[j] = fateOf(zone, context);
    out.push(fates[j] !== Runs ? NoRules : prepareRequest(rules, context, fields, spec.cached === true)
      .map((p) => ({ rule: p.rule, slot: rules[p.rule]!.counter.slot(p.key), applies: p.applies, counted: p.counted, weight: p.weight })));
  }
  return out;
}

/**
 * The fields of variant `j`: the fields of the variant without its IP are built once per distinct
 * path, host and headers, then its IP is written into them in place (no copy per variant). So the
 * object answered for `j` holds `j`'s fields only until the next call: read them before.
 */
function variantFields(template: RequestDescription, spec: BurstSpec, idsOf: (dims: number) => VariantIds): (j: number) => RequestFields {
  const { ids, size } = idsOf(AllDims & ~Dim.ip);
  const bases: (Record<string, RequestFields[string]> | undefined)[] = new Array(size);
  const ips = spec.vary?.ip;
  const setIp = ips !== undefined && template.fields?.['ip.src'] === undefined;
  return (j) => {
    let base = bases[ids[j]!];
    if (base === undefined) {
      const r = { ...variantRequest(template, spec, j) };
      if (setIp) delete r.ip;
      // A fresh object, ours to write.
      bases[ids[j]!] = base = requestFields(r) as Record<string, RequestFields[string]>;
    }
    if (setIp) base['ip.src'] = ips[j]!;
    return base;
  };
}

/** Answers memoised by variant number (`VariantIds`). */
interface Memo<T> {
  ids: Int32Array;
  answers: (T | undefined)[];
}

function memo<T>({ ids, size }: VariantIds): Memo<T> {
  return { ids, answers: new Array<T | undefined>(size) };
}

/** The rules whose answers depend on the same dimensions, and their answers: per rule of the group, 1 applies, 2 counted. */
interface RuleGroup extends Memo<Uint8Array> {
  rules: number[];
}

/** Each expression once per distinct value of what it reads (`burst-memo.ts`). */
function prepareMemo(zone: ZoneTraceInput, rules: readonly CountingRule[], template: RequestDescription, spec: BurstSpec, fates: Uint8Array): Prepared[][] {
  const { idsOf } = variantIds(spec, fates.length);
  const fieldsOf = variantFields(template, spec, idsOf);
  const cached = spec.cached === true;
  // Before rate limiting: every firewall filter and custom rule expression.
  let fateDims = 0;
  for (const r of zone.firewallRules) if (r.filter !== undefined) fateDims |= expressionDims(r.filter.expression, TracePhases.firewall);
  for (const r of zone.customRules?.rules ?? []) fateDims |= expressionDims(r.expression, CustomPhase);
  const fateMemo = memo<number>(idsOf(fateDims));
  const groups = new Map<number, RuleGroup>();
  const keyMemos = new Map<string, Memo<string>>();
  const ruleKeys: Memo<string>[] = [];
  // Per rule, its counter states by the number of the variant's characteristics.
  const ruleSlots: (Slot | undefined)[][] = [];
  rules.forEach((rule, i) => {
    const rl = rule.ratelimit;
    const dims = expressionDims(rule.expression, RatelimitPhase) | (hasCounting(rl) ? expressionDims(rl.counting_expression!, CountingPhase) : 0);
    let g = groups.get(dims);
    if (g === undefined) groups.set(dims, (g = { ...memo<Uint8Array>(idsOf(dims)), rules: [] }));
    g.rules.push(i);
    const signature = rl.characteristics.join('\u0002');
    let keys = keyMemos.get(signature);
    if (keys === undefined) keyMemos.set(signature, (keys = memo<string>(idsOf(rl.characteristics.reduce((d, c) => d | characteristicDims(c), 0)))));
    ruleKeys.push(keys);
    ruleSlots.push(new Array<Slot | undefined>(keys.answers.length));
  });
  const groupList = [...groups.values()];
  const weights: (number | undefined)[] = [];
  const out: Prepared[][] = [];
  for (let j = 0; j < fates.length; j++) {
    // Made on first need: most variants find every answer memoised.
    let fields: RequestFields | undefined;
    let context: ExecutionContext | undefined;
    const fateId = fateMemo.ids[j]!;
    let fate = fateMemo.answers[fateId];
    if (fate === undefined) {
      context = new ExecutionContext((fields = fieldsOf(j)));
      fateMemo.answers[fateId] = fate = fateOf(zone, context);
    }
    fates[j] = fate;
    if (fate !== Runs) {
      out.push(NoRules);
      continue;
    }
    let prepared: Prepared[] | undefined;
    let groupsSeen = 0;
    for (const g of groupList) {
      const id = g.ids[j]!;
      let answers = g.answers[id];
      if (answers === undefined) {
        context ??= new ExecutionContext((fields ??= fieldsOf(j)));
        g.answers[id] = answers = groupAnswers(rules, g.rules, context, cached);
      }
      let added = false;
      for (let k = 0; k < g.rules.length; k++) {
        const a = answers[k]!;
        if (a === 0) continue;
        const i = g.rules[k]!;
        const rule = rules[i]!;
        const keys = ruleKeys[i]!;
        const keyId = keys.ids[j]!;
        const slots = ruleSlots[i]!;
        let slot = slots[keyId];
        if (slot === undefined) {
          let key = keys.answers[keyId];
          if (key === undefined) keys.answers[keyId] = key = counterKey(rule, (fields ??= fieldsOf(j)));
          slots[keyId] = slot = rule.counter.slot(key);
        }
        const weight = weights[i] ??= requestWeight(rule, (fields ??= fieldsOf(j)));
        (prepared ??= []).push({ rule: i, slot, applies: (a & 1) !== 0, counted: (a & 2) !== 0, weight });
        added = true;
      }
      if (added) groupsSeen++;
    }
    // In rule order, as the phase runs them.
    if (groupsSeen > 1) prepared!.sort((a, b) => a.rule - b.rule);
    out.push(prepared ?? NoRules);
  }
  return out;
}

/** The answers of a group's rules for one request: per rule, 1 applies, 2 counted. */
function groupAnswers(rules: readonly CountingRule[], group: readonly number[], context: ExecutionContext, cached: boolean): Uint8Array {
  const out = new Uint8Array(group.length);
  for (let k = 0; k < group.length; k++) {
    const { applies, counted } = ruleAnswer(rules[group[k]!]!, context, cached);
    out[k] = (applies ? 1 : 0) | (counted ? 2 : 0);
  }
  return out;
}

/**
 * Runs a burst through the zone; `rateLimit` is its `http_ratelimit` entry point.
 * @example traceBurst(zone, entry, { path: '/login' }, { count: 6, over: 60 })
 */
export function traceBurst(zone: ZoneTraceInput, rateLimit: StoredRuleset | undefined, template: RequestDescription, spec: BurstSpec, options: BurstTraceOptions = {}): BurstTrace {
  const rules = countingRules(rateLimit?.rules ?? []);
  const n = variantCount(spec);
  const fates = new Uint8Array(n);
  const prepared = (options.memo === false ? preparePlain : prepareMemo)(zone, rules, template, spec, fates);
  const total = requestCount(spec);
  const counters = rules.map((r) => r.counter);
  const stops = rules.map((r) => r.stops);
  const times = spec.at;
  const overMs = (spec.over ?? 0) * 1000;
  const count = spec.count ?? 1;
  const outcomes: (BurstRuleOutcome | undefined)[] = new Array(rules.length).fill(undefined);
  const out: BurstTrace = { requests: total, acted: 0, ended_by_custom_rules: 0, skipped: 0, first: null, rules: [] };
  for (let i = 0, j = 0; i < total; i++, j = j + 1 === n ? 0 : j + 1) {
    const fate = fates[j]!;
    if (fate !== Runs) {
      if (fate === Ended) out.ended_by_custom_rules++;
      else out.skipped++;
      continue;
    }
    const p = prepared[j]!;
    if (p.length === 0) continue;
    // requestTime, inlined.
    const at = times !== undefined ? Math.round(times[i]! * 1000) : Math.round((overMs * i) / count);
    let acted = false;
    for (let k = 0; k < p.length; k++) {
      const e = p[k]!;
      const until = counters[e.rule]!.hitSlot(e.slot, at, e.counted, e.applies, e.weight);
      if (until === Passes) continue;
      acted = true;
      const known = outcomes[e.rule];
      if (known !== undefined) known.requests++;
      else {
        const rule = rules[e.rule]!;
        const o: BurstRuleOutcome = { ref: rule.ref, action: rule.action, first_request: i + 1, at: at / 1000, until: until < 0 ? null : until / 1000, requests: 1 };
        if (rule.status_code !== undefined) o.status_code = rule.status_code;
        outcomes[e.rule] = o;
        out.first ??= o;
      }
      if (stops[e.rule]) break;
    }
    if (acted) out.acted++;
  }
  out.rules = outcomes.filter((o): o is BurstRuleOutcome => o !== undefined);
  return out;
}
