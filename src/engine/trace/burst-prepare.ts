/**
 * The preparation of a burst (`burst.ts`): what each distinct request (variant) does before rate
 * limiting (ended by the firewall or custom rules, skipped past `http_ratelimit`, or run), and, for
 * those that run, the rules that match or count it with the counter state of its key, resolved once
 * so the loop over the requests only counts. Two ways, with the same answers (the tests hold them
 * to it): every variant through every expression (`preparePlain`), or each expression once per
 * distinct value of what it reads (`prepareMemo`, `burst-memo.ts`).
 */
import { CustomPhase, RatelimitPhase, TerminatingCustomActions, type BurstSpec, type CustomSkipParameters } from '../../api/index.js';
import { ExecutionContext, requestFields, requestFieldsWithHeaders, type Lists, type RequestDescription, type RequestFields } from '../../expr/index.js';
import { AllDims, characteristicDims, Dim, expressionDims, variantIds, type VariantIds } from './burst-memo.js';
import { CountingPhase, counterKey, hasCounting, prepareRequest, requestWeight, ruleAnswer, type CountingRule } from './ratelimit.js';
import { traceCustomRules } from './custom.js';
import { traceFirewallRules } from './firewall.js';
import { matches, TracePhases } from './matchers.js';
import type { ZoneTraceInput } from './zone.js';

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
export const Ended = 0;
export const Skipped = 1;
export const Runs = 2;

/** What the phases before rate limiting make of a request: the firewall rules, then the custom rules. */
function fateOf(zone: ZoneTraceInput, context: ExecutionContext): number {
  const firewall = traceFirewallRules(zone.firewallRules, context);
  // `allow` ends the firewall and custom rules only: rate limiting still runs (as in `traceZone`).
  if (firewall.rule !== null) return firewall.action === 'allow' ? Runs : Ended;
  const custom = zone.customRules === undefined ? undefined : traceCustomRules(zone.customRules, context);
  return custom?.rule != null ? Ended : custom?.skipped_phases.includes(RatelimitPhase) === true ? Skipped : Runs;
}

const Terminating: ReadonlySet<string> = new Set(TerminatingCustomActions);

/**
 * `fateOf` without building the custom rules' trace (the memoised path, once per distinct value of
 * what the rules read; the tests hold it to `fateOf` through `preparePlain`): the first matching
 * terminating rule ends the request, a matching skip of `http_ratelimit` skips it unless a later
 * rule ends it, a skip of the current ruleset or phase ends the custom rules.
 */
function leanFateOf(zone: ZoneTraceInput, context: ExecutionContext): number {
  if (zone.firewallRules.length > 0) {
    const firewall = traceFirewallRules(zone.firewallRules, context);
    if (firewall.rule !== null) return firewall.action === 'allow' ? Runs : Ended;
  }
  let skipped = false;
  for (const rule of zone.customRules?.rules ?? []) {
    if (!rule.enabled || !matches(rule.expression, CustomPhase, context)) continue;
    if (Terminating.has(rule.action)) return Ended;
    if (rule.action !== 'skip') continue;
    const skip = rule.action_parameters as CustomSkipParameters | undefined;
    if (skip?.phases?.includes(RatelimitPhase) === true) skipped = true;
    if (skip?.ruleset === 'current' || skip?.phase === 'current') break;
  }
  return skipped ? Skipped : Runs;
}

/**
 * The rules that match or count each variant, with the variant's counter slot in each, side by
 * side in flat typed arrays (no object per entry), in variant order so the loop over the requests
 * reads them in sequence: variant `j`'s entries are `starts[j]` to `ends[j]` (exclusive), in rule
 * order; `flags` 1 applies, 2 counted.
 */
export interface Prepared {
  starts: Int32Array;
  ends: Int32Array;
  rule: Int32Array;
  slot: Int32Array;
  flags: Uint8Array;
  weight: Float64Array;
}

/** `Prepared` while it is made: variants in any order, arrays that grow. */
interface Building {
  starts: Int32Array;
  ends: Int32Array;
  rule: number[];
  slot: number[];
  flags: number[];
  weight: number[];
}

/** Empty prepared entries for `variants` variants. */
function preparedFor(variants: number): Building {
  return { starts: new Int32Array(variants), ends: new Int32Array(variants), rule: [], slot: [], flags: [], weight: [] };
}

/** The entries made, laid out in variant order in typed arrays. */
function inVariantOrder(b: Building): Prepared {
  const n = b.starts.length;
  const size = b.rule.length;
  const out: Prepared = { starts: new Int32Array(n), ends: new Int32Array(n), rule: new Int32Array(size), slot: new Int32Array(size), flags: new Uint8Array(size), weight: new Float64Array(size) };
  let at = 0;
  for (let j = 0; j < n; j++) {
    out.starts[j] = at;
    for (let k = b.starts[j]!; k < b.ends[j]!; k++, at++) {
      out.rule[at] = b.rule[k]!;
      out.slot[at] = b.slot[k]!;
      out.flags[at] = b.flags[k]!;
      out.weight[at] = b.weight[k]!;
    }
    out.ends[j] = at;
  }
  return out;
}

/** Every variant through every expression. */
export function preparePlain(zone: ZoneTraceInput, rules: readonly CountingRule[], template: RequestDescription, spec: BurstSpec, fates: Uint8Array, lists?: Lists): Prepared {
  const out = preparedFor(fates.length);
  for (let j = 0; j < fates.length; j++) {
    const fields = requestFields(variantRequest(template, spec, j));
    const context = new ExecutionContext(fields, lists);
    fates[j] = fateOf(zone, context);
    out.starts[j] = out.rule.length;
    if (fates[j] === Runs) {
      for (const p of prepareRequest(rules, context, fields, spec.cached === true)) {
        out.rule.push(p.rule);
        out.slot.push(rules[p.rule]!.counter.slot(p.key));
        out.flags.push((p.applies ? 1 : 0) | (p.counted ? 2 : 0));
        out.weight.push(p.weight);
      }
    }
    out.ends[j] = out.rule.length;
  }
  return inVariantOrder(out);
}

/** Sorts entries `from` to `to` (a few) by rule, in place. */
function sortByRule(p: Building, from: number, to: number): void {
  const { rule, slot, flags, weight } = p;
  for (let k = from + 1; k < to; k++) {
    const r = rule[k]!, s = slot[k]!, f = flags[k]!, w = weight[k]!;
    let m = k - 1;
    for (; m >= from && rule[m]! > r; m--) {
      rule[m + 1] = rule[m]!;
      slot[m + 1] = slot[m]!;
      flags[m + 1] = flags[m]!;
      weight[m + 1] = weight[m]!;
    }
    rule[m + 1] = r;
    slot[m + 1] = s;
    flags[m + 1] = f;
    weight[m + 1] = w;
  }
}

/** The fields of a burst's variants and their contexts (`variantViews`). */
interface VariantViews {
  fields(j: number): RequestFields;
  context(j: number): ExecutionContext;
}

/**
 * The fields of variant `j`: the fields of the variant without its IP (its base: its path, host
 * and headers) are built when a variant of another base is asked for, on the fields of its URL
 * (path and host) when only its headers differ from the last base's (`requestFieldsWithHeaders`);
 * then its IP is written into them in place (no copy per variant), and one context per base is
 * told its IP changed (`refresh`). So the objects answered for `j` hold `j`'s request only until a
 * call for another variant: read them before. Asked in the order of their URLs, then bases, each
 * base is built once and only one is alive at a time.
 */
function variantViews(template: RequestDescription, spec: BurstSpec, { bases, urls }: { bases: Int32Array; urls: Int32Array }, lists: Lists | undefined): VariantViews {
  const v = spec.vary ?? {};
  const headerLists = Object.entries(v.headers ?? {});
  let current = -1;
  let base: Record<string, RequestFields[string]> = {};
  let context: ExecutionContext | undefined;
  let urlCurrent = -1;
  let urlDesc: RequestDescription = template;
  let urlFields: RequestFields = {};
  const ips = v.ip;
  const setIp = ips !== undefined && template.fields?.['ip.src'] === undefined;
  const fields = (j: number): RequestFields => {
    const id = bases[j]!;
    if (id !== current) {
      const u = urls[j]!;
      if (u !== urlCurrent) {
        urlDesc = { ...template };
        if (v.path !== undefined) urlDesc.path = v.path[j]!;
        if (v.host !== undefined) urlDesc.host = v.host[j]!;
        if (headerLists.length > 0) urlFields = requestFields(urlDesc);
        urlCurrent = u;
      }
      // A fresh object, ours to write.
      if (headerLists.length === 0) base = requestFields(urlDesc) as Record<string, RequestFields[string]>;
      else {
        const headers: Record<string, string | readonly string[]> = { ...(template.headers ?? {}) };
        for (const [name, values] of headerLists) headers[name] = values[j]!;
        base = requestFieldsWithHeaders(urlFields, urlDesc, headers) as Record<string, RequestFields[string]>;
      }
      context = undefined;
      current = id;
    }
    if (setIp && base['ip.src'] !== ips[j]) {
      base['ip.src'] = ips[j]!;
      context?.refresh('ip.src');
    }
    return base;
  };
  return {
    fields,
    context: (j) => {
      const request = fields(j);
      return (context ??= new ExecutionContext(request, lists));
    },
  };
}

/** `order` (variant numbers) sorted, stably, by their numbers in `ids` (a counting sort). */
function sortBy(order: Int32Array, { ids, size }: VariantIds): Int32Array {
  const next = new Int32Array(size + 1);
  for (let j = 0; j < ids.length; j++) next[ids[j]! + 1]++;
  for (let b = 0; b < size; b++) next[b + 1] += next[b]!;
  const out = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) {
    const j = order[k]!;
    out[next[ids[j]!]!++] = j;
  }
  return out;
}

/** Answers memoised by variant number (`VariantIds`). */
interface Memo<T> {
  ids: Int32Array;
  answers: (T | undefined)[];
}

function memo<T>({ ids, size }: VariantIds): Memo<T> {
  return { ids, answers: new Array<T | undefined>(size) };
}

/** The rules whose answers depend on the same dimensions, and their answers by variant number (`done`: known): per rule of the group, 1 applies, 2 counted, at `number * rules.length`. */
interface RuleGroup {
  ids: Int32Array;
  rules: number[];
  /** Per variant number, its rules that match or count (`hits[from[id]]` to `hits[to[id]]`, each `k * 4 + answer`, `k` the rule's place in `rules`); `from` -1: not yet known. */
  from: Int32Array;
  to: Int32Array;
  hits: number[];
}

/** Each expression once per distinct value of what it reads (`burst-memo.ts`). */
export function prepareMemo(zone: ZoneTraceInput, rules: readonly CountingRule[], template: RequestDescription, spec: BurstSpec, fates: Uint8Array, lists?: Lists): Prepared {
  const { idsOf } = variantIds(spec, fates.length);
  // By URL, then by base, so each variant's fields without its IP are built once and dropped after (`variantViews`).
  const bases = idsOf(AllDims & ~Dim.ip);
  const urls = idsOf(Dim.path | Dim.host | Dim.hostHeader);
  const order = sortBy(sortBy(Int32Array.from({ length: fates.length }, (_, j) => j), bases), urls);
  const views = variantViews(template, spec, { bases: bases.ids, urls: urls.ids }, lists);
  const fieldsOf = views.fields;
  const cached = spec.cached === true;
  // Before rate limiting: every firewall filter and custom rule expression.
  let fateDims = 0;
  for (const r of zone.firewallRules) if (r.filter !== undefined) fateDims |= expressionDims(r.filter.expression, TracePhases.firewall);
  for (const r of zone.customRules?.rules ?? []) fateDims |= expressionDims(r.expression, CustomPhase);
  const fateMemo = memo<number>(idsOf(fateDims));
  const groups = new Map<number, RuleGroup>();
  const keyMemos = new Map<string, Memo<string>>();
  const ruleKeys: Memo<string>[] = [];
  // Per rule, its counter slots by the number of the variant's characteristics (-1: not yet known).
  const ruleSlots: Int32Array[] = [];
  rules.forEach((rule, i) => {
    const rl = rule.ratelimit;
    const dims = expressionDims(rule.expression, RatelimitPhase) | (hasCounting(rl) ? expressionDims(rl.counting_expression!, CountingPhase) : 0);
    let g = groups.get(dims);
    if (g === undefined) {
      const ids = idsOf(dims);
      groups.set(dims, (g = { ids: ids.ids, rules: [], from: new Int32Array(ids.size).fill(-1), to: new Int32Array(ids.size), hits: [] }));
    }
    g.rules.push(i);
    const signature = rl.characteristics.join('\u0002');
    let keys = keyMemos.get(signature);
    if (keys === undefined) keyMemos.set(signature, (keys = memo<string>(idsOf(rl.characteristics.reduce((d, c) => d | characteristicDims(c), 0)))));
    ruleKeys.push(keys);
    ruleSlots.push(new Int32Array(keys.answers.length).fill(-1));
  });
  const groupList = [...groups.values()];
  const weights: (number | undefined)[] = [];
  const out = preparedFor(fates.length);
  for (let v = 0; v < order.length; v++) {
    const j = order[v]!;
    // Made on first need: most variants find every answer memoised.
    let fields: RequestFields | undefined;
    let context: ExecutionContext | undefined;
    const fateId = fateMemo.ids[j]!;
    let fate = fateMemo.answers[fateId];
    if (fate === undefined) {
      context = views.context(j);
      fateMemo.answers[fateId] = fate = leanFateOf(zone, context);
    }
    fates[j] = fate;
    const start = out.rule.length;
    out.starts[j] = start;
    if (fate === Runs) {
      let groupsSeen = 0;
      for (const g of groupList) {
        const id = g.ids[j]!;
        if (g.from[id]! < 0) {
          context ??= views.context(j);
          g.from[id] = g.hits.length;
          groupAnswers(rules, g.rules, context, cached, g.hits);
          g.to[id] = g.hits.length;
        }
        let added = false;
        for (let h = g.from[id]!, end = g.to[id]!; h < end; h++) {
          const code = g.hits[h]!;
          const a = code & 3;
          const i = g.rules[code >> 2]!;
          const rule = rules[i]!;
          const keys = ruleKeys[i]!;
          const keyId = keys.ids[j]!;
          const slots = ruleSlots[i]!;
          let slot = slots[keyId]!;
          if (slot < 0) {
            let key = keys.answers[keyId];
            if (key === undefined) keys.answers[keyId] = key = counterKey(rule, (fields ??= fieldsOf(j)));
            slots[keyId] = slot = rule.counter.slot(key);
          }
          out.rule.push(i);
          out.slot.push(slot);
          out.flags.push(a);
          out.weight.push(weights[i] ??= requestWeight(rule, (fields ??= fieldsOf(j))));
          added = true;
        }
        if (added) groupsSeen++;
      }
      // In rule order, as the phase runs them.
      if (groupsSeen > 1) sortByRule(out, start, out.rule.length);
    }
    out.ends[j] = out.rule.length;
  }
  return inVariantOrder(out);
}

/** The rules of a group that match or count one request, added to `hits`: `k * 4 + answer` (1 applies, 2 counted), `k` the rule's place in the group. */
function groupAnswers(rules: readonly CountingRule[], group: readonly number[], context: ExecutionContext, cached: boolean, hits: number[]): void {
  for (let k = 0; k < group.length; k++) {
    const { applies, counted } = ruleAnswer(rules[group[k]!]!, context, cached);
    if (applies || counted) hits.push(k * 4 + (applies ? 1 : 0) + (counted ? 2 : 0));
  }
}
