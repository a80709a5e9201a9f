/**
 * The preparation of a burst (`burst.ts`): what each distinct request (variant) does before rate
 * limiting (`burst-fate.ts`), and, for those that run, the rules that match or count it with the
 * counter state of its key (`burst-prepared.ts`), resolved once so the loop over the requests only
 * counts. Two ways, with the same answers (the tests hold them
 * to it): every variant through every expression (`preparePlain`), or each expression once per
 * distinct value of what it reads (`prepareMemo`, `burst-memo.ts`).
 */
import { CustomPhase, RatelimitPhase, type BurstSpec, CountingPhase } from '../../api/index.js';
import { ExecutionContext, requestFields, requestFieldsWithHeaders, type Lists, type RequestDescription, type RequestFields } from '../../expr/index.js';
import { AllDims, characteristicDims, Dim, expressionDims, variantIds, type VariantIds } from './burst-memo.js';
import { counterKey, hasCounting, prepareRequest, requestWeight, ruleAnswer, type CountingRule } from './ratelimit.js';
import { fateOf, leanFateOf, Runs } from './burst-fate.js';
import { inVariantOrder, preparedFor, sortByRule, type Prepared } from './burst-prepared.js';
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
