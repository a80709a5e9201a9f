/**
 * The evaluator's view of a request. `RequestFields` is what callers pass (field name to a plain JS
 * value); an `ExecutionContext` converts each field once, on first use, into the evaluator's value
 * model and caches it, so one request can go through many compiled filters cheaply:
 *
 * | type      | request value accepted                        | evaluator value                  |
 * |-----------|-----------------------------------------------|----------------------------------|
 * | Bytes     | string (text, UTF-8 encoded), Uint8Array      | byte string, one char per byte   |
 * | Int       | number, bigint, decimal string                | number                           |
 * | Ip        | string, number (v4), bigint (v6)              | number (IPv4) / bigint (IPv6)    |
 * | Bool      | boolean, "true"/"false"                       | boolean                          |
 * | Array<T>  | array (a lone scalar is a one-element array)  | array                            |
 * | Map<T>    | object or Map (header maps: keys lower-cased) | Map                              |
 *
 * A field left out is a *missing value* (comparisons on it are false, reference §5), except arrays and
 * maps, which are empty when left out (a request without headers has an empty header map) and Bools,
 * which are false. `requestFields()` fills the fields a real request always has.
 */
import { ZonewallError } from '../errors.js';
import { textToBytes } from './ast.js';
import { parseIp, type IpValue } from './ip.js';
import { FIELDS } from './scheme.js';
import type { Type } from './types.js';

/** A value as the evaluator sees it. */
export type Value = boolean | number | bigint | string | readonly Value[] | ReadonlyMap<string, Value>;

/** A field value as callers give it. */
export type FieldValue =
  | string
  | number
  | bigint
  | boolean
  | Uint8Array
  | readonly FieldValue[]
  | ReadonlyMap<string, FieldValue>
  | { readonly [key: string]: FieldValue };

/** Named lists for `in $name`: values as given (IP lists may hold CIDRs and `a..b` ranges). */
export type Lists = Readonly<Record<string, readonly FieldValue[]>>;

/** A request: catalog field names to values. */
export type RequestFields = Readonly<Record<string, FieldValue | undefined>>;

/** A request value that does not fit its field's type (code `ERR_EXPRESSION_INPUT`). */
export class RequestFieldError extends ZonewallError {
  constructor(readonly field: string, message: string) {
    super('ERR_EXPRESSION_INPUT', `request field ${field}: ${message}`);
  }
}

/**
 * A slot not yet loaded. `null` is no evaluator value (a missing one is `undefined`), and V8
 * compares with it as a constant, where a module's symbol is loaded first on every field read.
 */
const NOT_LOADED = null;

/**
 * The fields most rules read, given the first slots: a context's slots array only grows to the
 * slots it reads (`load`), and a request that reads only these allocates a few slots, not one per
 * field of the catalog (issue 35: the copy was most of what a context allocated).
 */
const HOT_FIELDS = [
  'http.host', 'http.request.method', 'http.request.uri.path', 'http.request.uri.path.extension', 'http.request.uri.query',
  'http.request.uri', 'http.request.full_uri', 'http.user_agent', 'http.referer', 'http.cookie', 'http.request.headers',
  'ip.src', 'ip.src.country', 'ip.src.asnum', 'cf.client.bot', 'ssl', 'cf.edge.server_port', 'cf.threat_score',
].filter((name) => FIELDS.has(name));

/** Field name to slot number; compiled filters address fields by slot. */
export const FIELD_SLOTS: ReadonlyMap<string, number> = new Map(
  [...HOT_FIELDS, ...[...FIELDS.keys()].filter((name) => !HOT_FIELDS.includes(name))].map((name, i) => [name, i]),
);

const SLOT_NAMES = [...FIELD_SLOTS.keys()];
const SLOT_TYPES = SLOT_NAMES.map((name) => FIELDS.get(name)!.type);
/** Whether a slot's map keys are lower-cased (the header maps). */
const SLOT_LOWER_KEYS = SLOT_NAMES.map((name) => name.includes('headers'));
/** The slots of a context once it reads a field, copied (one block copy) rather than filled slot by slot. */
// Built element by element, so the array (and each copy) is packed: a holey one costs a hole check on every read.
const EMPTY_SLOTS: ReadonlyArray<typeof NOT_LOADED> = Array.from({ length: FIELD_SLOTS.size }, () => NOT_LOADED);
/** The slots of a context that has read only hot fields (see HOT_FIELDS). */
const HOT_SLOTS: ReadonlyArray<typeof NOT_LOADED> = EMPTY_SLOTS.slice(0, HOT_FIELDS.length);

/** The slots of a context that has read no field (never written: `load` replaces it); emptied from a one-element array, so it has the slots' elements kind. */
const NO_SLOTS: Array<Value | undefined | typeof NOT_LOADED> = [NOT_LOADED];
NO_SLOTS.pop();

/** `lastContainer` before any: packed, like the containers (field-test.ts). */
const NO_CONTAINER: Value[] = [''];
NO_CONTAINER.pop();

/** The slot of `ip.src`, which the context also keeps as `ip4` (see there). */
const IP_SRC_SLOT = FIELD_SLOTS.get('ip.src')!;

/**
 * The memo of a context that has computed nothing yet (never written: `memoize` replaces it).
 * Emptied from a one-element array, so it has the elements kind of every memo (one map to check).
 */
const NO_MEMO: Array<Value | undefined | typeof NOT_LOADED> = [NOT_LOADED];
NO_MEMO.pop();

/** Call-expression text to memo slot: pure calls shared by many filters run once per request. */
const MEMO_SLOTS = new Map<string, number>();

/** The memo slot of a pure call (by its canonical text), allocated on first use. */
export function memoSlot(key: string): number {
  let slot = MEMO_SLOTS.get(key);
  if (slot === undefined) MEMO_SLOTS.set(key, (slot = MEMO_SLOTS.size));
  return slot;
}

/** A request prepared for evaluation: converts and caches field values on first use. */
export class ExecutionContext {
  /**
   * The mark a compiled filter reads to tell a context from a request record: one property load,
   * where `instanceof` walks the prototype chain, once per filter per request (issue 35). No field
   * of the catalog has this name. It is on the prototype (below the class): V8 then answers the
   * load from the map it checks anyway, where an own field is loaded and compared on every call.
   */
  declare readonly isExecutionContext: true;
  /**
   * `ip.src` when it is an IPv4 address, read on first use by the filters written out for it
   * (compile-root.ts): NaN before, -1 when it is IPv6 or missing (no IPv4 literal is negative).
   * One number property, where a field read loads the slots array, checks its bounds and the
   * not-loaded mark, and compares a value of any type (issue 35: 1,000 `ip.src eq` rules).
   */
  ip4 = NaN;
  /**
   * The memo slot and value a quantifier over `f[key][*]` read last (field-test.ts, containerOf):
   * 1,000 `any(headers["x-api-key"][*] eq …)` rules read one container, and two properties of the
   * context cost less than the memo array's checks (issue 35). -1: none yet.
   */
  lastContainerMemo = -1;
  lastContainer: readonly Value[] = NO_CONTAINER;
  /** The converted fields, by slot; NO_SLOTS until the first field is read, then the hot ones or all (see `load`). */
  private slots: Array<Value | undefined | typeof NOT_LOADED> = NO_SLOTS;
  private memo: Array<Value | undefined | typeof NOT_LOADED> = NO_MEMO;

  /**
   * The named lists `$name` resolves to for this request (the list resolver hook): evaluators that
   * compile expressions once for many requests (the engine's trace, `zonewall test`) compile an
   * expression that uses `$name` with these lists. Undefined: lists are not known (they match nothing).
   */
  lists: Lists | undefined;

  constructor(readonly request: RequestFields, lists?: Lists) {
    this.lists = lists;
  }

  /** The value of the field in `slot` (undefined = missing). */
  field(slot: number): Value | undefined {
    const slots = this.slots;
    if (slot < slots.length) {
      const cached = slots[slot];
      if (cached !== NOT_LOADED) return cached;
    }
    return this.load(slot);
  }

  /**
   * Reads `ip.src` into `ip4` (see there) and returns it. A context whose filters read only `ip4`
   * never copies the slots (one request through 1,000 `ip.src eq` rules: the copy was a fifth of
   * what the request cost beyond the rules).
   */
  loadIp4(): number {
    const v = this.slots.length > 0 ? this.field(IP_SRC_SLOT) : this.convertField(IP_SRC_SLOT);
    return (this.ip4 = typeof v === 'number' ? v : -1);
  }

  /** The container in memo `slot` (computed by `read` on first use), kept as the last one read. */
  container(slot: number, read: (ctx: ExecutionContext) => Value | undefined): readonly Value[] {
    const value = this.memoized(slot, read) as readonly Value[];
    this.lastContainerMemo = slot;
    this.lastContainer = value;
    return value;
  }

  /** The cached result of a pure call in memo `slot`, computing it on first use. */
  memoized(slot: number, compute: (ctx: ExecutionContext) => Value | undefined): Value | undefined {
    // Small enough to inline into every filter that reads a shared value (1,000 `lower(http.host)
    // eq` or `any(headers["x"][*] eq)` rules, issue 35): one array, one bound, one mark.
    const memo = this.memo;
    if (slot < memo.length) {
      const cached = memo[slot];
      if (cached !== NOT_LOADED) return cached;
    }
    return this.memoize(slot, compute);
  }

  private memoize(slot: number, compute: (ctx: ExecutionContext) => Value | undefined): Value | undefined {
    let memo = this.memo;
    if (slot >= memo.length) {
      // The first memo of a context is a new array (NO_MEMO is shared); it grows to every slot known.
      memo = memo === NO_MEMO ? [] : memo;
      const size = Math.max(slot + 1, MEMO_SLOTS.size);
      while (memo.length < size) memo.push(NOT_LOADED);
      this.memo = memo;
    }
    const value = compute(this);
    memo[slot] = value;
    return value;
  }

  /**
   * The request record's `field` was changed in place: its next read converts it anew, and the
   * memoised calls (any may read it) are dropped. One context then serves requests that differ in
   * that field alone (a burst's client IPs) without a new context for each.
   */
  refresh(field: string): void {
    const slot = FIELD_SLOTS.get(field);
    if (slot !== undefined && slot < this.slots.length) this.slots[slot] = NOT_LOADED;
    if (slot === IP_SRC_SLOT) this.ip4 = NaN;
    if (this.memo !== NO_MEMO) this.memo.fill(NOT_LOADED);
    this.lastContainerMemo = -1;
    this.lastContainer = NO_CONTAINER;
  }

  private load(slot: number): Value | undefined {
    if (slot >= this.slots.length) {
      // Hot slots first; all of them when a field outside those is read.
      this.slots = slot < HOT_SLOTS.length && this.slots === NO_SLOTS ? HOT_SLOTS.slice() : [...this.slots, ...EMPTY_SLOTS.slice(this.slots.length)];
    }
    const value = this.convertField(slot);
    this.slots[slot] = value;
    return value;
  }

  /** The value of the field in `slot`, converted from the request (not cached). */
  private convertField(slot: number): Value | undefined {
    const name = SLOT_NAMES[slot]!;
    const type = SLOT_TYPES[slot]!;
    const request = this.request;
    // Own properties only; the lookup by name first, so a field left out costs one lookup.
    const given = request[name];
    const raw = given !== undefined && Object.prototype.hasOwnProperty.call(request, name) ? given : undefined;
    return raw === undefined ? defaultValue(type) : convert(name, raw, type, SLOT_LOWER_KEYS[slot]!);
  }
}

Object.defineProperty(ExecutionContext.prototype, 'isExecutionContext', { value: true });

function defaultValue(type: Type): Value | undefined {
  switch (type.kind) {
    case 'Array': return [];
    case 'Map': return new Map();
    case 'Bool': return false;
    default: return undefined;
  }
}

/** Converts one caller value to the evaluator's model for `type`; throws `RequestFieldError`. */
export function convert(field: string, raw: FieldValue, type: Type, lowerKeys = false): Value {
  switch (type.kind) {
    case 'Bytes': return toBytes(field, raw);
    case 'Int': return toInt(field, raw);
    case 'Ip': return toIp(field, raw);
    case 'Bool': return toBool(field, raw);
    case 'Array': {
      const items = Array.isArray(raw) ? (raw as readonly FieldValue[]) : [raw];
      // Pushed, not mapped: `map` makes a holey array, and every element read then checks for a hole.
      const out: Value[] = [];
      for (const item of items) out.push(convert(field, item, type.of));
      return out;
    }
    case 'Map': return toMap(field, raw, type.of, lowerKeys);
  }
}

function toBytes(field: string, raw: FieldValue): string {
  if (typeof raw === 'string') return textToBytes(raw);
  if (raw instanceof Uint8Array) return Buffer.from(raw).toString('latin1');
  if (typeof raw === 'number' || typeof raw === 'bigint' || typeof raw === 'boolean') return String(raw);
  throw new RequestFieldError(field, `expected a string, got ${describe(raw)}`);
}

function toInt(field: string, raw: FieldValue): number {
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  if (typeof raw === 'bigint') return Number(raw);
  if (typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) return Number(raw.trim());
  throw new RequestFieldError(field, `expected an integer, got ${describe(raw)}`);
}

function toIp(field: string, raw: FieldValue): IpValue {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= 0xffffffff) return raw;
  if (typeof raw === 'bigint' && raw >= 0n && raw < 1n << 128n) return raw;
  if (typeof raw === 'string') {
    const ip = parseIp(raw.trim());
    if (ip !== undefined) return ip;
  }
  throw new RequestFieldError(field, `expected an IP address, got ${describe(raw)}`);
}

function toBool(field: string, raw: FieldValue): boolean {
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new RequestFieldError(field, `expected true or false, got ${describe(raw)}`);
}

function toMap(field: string, raw: FieldValue, of: Type, lowerKeys: boolean): ReadonlyMap<string, Value> {
  const out = new Map<string, Value>();
  // Once per request for a header map (the first filter that reads a header): by key, without an
  // array per entry, and without a look-up for a key that cannot meet an earlier one (issue 35).
  let changed = false;
  if (raw instanceof Map) {
    for (const [key, value] of raw as ReadonlyMap<string, FieldValue>) changed = addEntry(out, field, of, lowerKeys, changed, key, value);
    return out;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || raw instanceof Uint8Array) {
    throw new RequestFieldError(field, `expected a map of names to values, got ${describe(raw)}`);
  }
  const record = raw as Record<string, FieldValue>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) changed = addEntry(out, field, of, lowerKeys, changed, keys[i]!, record[keys[i]!]!);
  return out;
}

/**
 * Adds one entry of a map being converted; returns whether a key was changed by lower-casing so far.
 * Keys are unique, so only a key that lower-casing changed, or any after it, can meet another.
 */
function addEntry(out: Map<string, Value>, field: string, of: Type, lowerKeys: boolean, changed: boolean, key: string, value: FieldValue): boolean {
  const k = lowerKeys ? key.toLowerCase() : key;
  const converted = convert(field, value, of);
  const meets = changed || k !== key;
  const previous = meets ? out.get(k) : undefined;
  // Two keys that lower-case alike (`X-A`, `x-a`) merge, as repeated headers do.
  out.set(k, previous !== undefined && Array.isArray(previous) ? [...previous, ...(converted as Value[])] : converted);
  return meets;
}

function describe(raw: unknown): string {
  if (typeof raw === 'string') return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw);
  if (Array.isArray(raw)) return 'an array';
  if (typeof raw === 'bigint') return `${raw}`;
  return typeof raw === 'object' ? 'an object' : String(raw);
}
