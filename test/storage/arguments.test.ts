/**
 * Argument handling of the KV API, case by case as workerd handles it (each expectation was
 * observed on a SQLite-backed object in Miniflare 3 / workerd): how keys are coerced, which first
 * arguments are keys and which are entries, which options arguments are refused and with what
 * message, and how `list()` coerces its options (`limit` as the runtime's int32 conversion).
 */
import { describe, expect, it } from 'vitest';
import { StorageTypeError, type ObjectState } from '../../src/storage/index.js';
import { openNamespace, Probe, probe } from './helpers.js';

type Storage = ObjectState['storage'];
/** The storage API with its types loosened, as JavaScript callers see it. */
type Loose = Record<'get' | 'put' | 'delete' | 'list' | 'deleteAll' | 'getAlarm' | 'setAlarm' | 'deleteAlarm', (...args: unknown[]) => Promise<unknown>>;
type Outcome = { ok: unknown } | { err: string };

const loose = (s: Storage): Loose => s as unknown as Loose;
const abc = { a: 1, b: 2, c: 3 };
const put = (s: Storage, entries: Record<string, unknown>) => s.put(entries);
const keys = async (s: Storage) => [...(await s.list()).entries()];

const PARAM = (method: string, n: number, type: string, where = 'DurableObjectStorage') =>
  `TypeError: Failed to execute '${method}' on '${where}': parameter ${n} is not of type '${type}'.`;
const SHAPE = 'TypeError: put() may only be called with a single key-value pair and optional options as put(key, value, options) ' +
  'or with multiple key-value pairs and optional options as put(entries, options)';
const RANGE = 'TypeError: Value out of range. Must be between -2147483648 and 2147483647 (inclusive).';
const POSITIVE = 'TypeError: List limit must be positive.';

const cases: Array<[string, (s: Storage, l: Loose) => Promise<unknown>, Outcome]> = [
  // get
  ['get() with no key', (_s, l) => l.get(), { err: PARAM('get', 1, 'string or Array') }],
  ['get(undefined) reads the key "undefined"', async (s, l) => { await s.put('undefined', 7); return l.get(undefined); }, { ok: 7 }],
  ['get(null) reads "null"', async (s, l) => { await s.put('null', 1); return l.get(null); }, { ok: 1 }],
  ['get(123) reads "123"', async (s, l) => { await s.put('123', 1); return l.get(123); }, { ok: 1 }],
  ['get([undefined, "x"]) coerces each key', async (s, l) => { await s.put('undefined', 1); return l.get([undefined, 'x']); }, { ok: new Map([['undefined', 1]]) }],
  ['get(Symbol)', (_s, l) => l.get(Symbol('x')), { err: 'TypeError: Cannot convert a Symbol value to a string' }],
  ['get(key, "x")', (_s, l) => l.get('a', 'x'), { err: PARAM('get', 2, 'GetOptions') }],
  ['get(keys, 1)', (_s, l) => l.get(['a'], 1), { err: PARAM('get', 2, 'GetOptions') }],
  ['get(key, options) reads truthy non-boolean options', (_s, l) => l.get('a', { noCache: 'yes', allowConcurrency: 1 }), { ok: undefined }],
  // list
  ['list({limit: "2"}) coerces the limit', async (s, l) => { await put(s, abc); return l.list({ limit: '2' }); }, { ok: new Map([['a', 1], ['b', 2]]) }],
  ['list({limit: 1.5}) truncates', async (s, l) => { await put(s, abc); return l.list({ limit: 1.5 }); }, { ok: new Map([['a', 1]]) }],
  ['list({limit: true}) is 1', async (s, l) => { await put(s, abc); return l.list({ limit: true }); }, { ok: new Map([['a', 1]]) }],
  ['list({limit: Infinity})', (_s, l) => l.list({ limit: Infinity }), { err: POSITIVE }],
  ['list({limit: -Infinity})', (_s, l) => l.list({ limit: -Infinity }), { err: POSITIVE }],
  ['list({limit: NaN})', (_s, l) => l.list({ limit: NaN }), { err: POSITIVE }],
  ['list({limit: 0.5})', (_s, l) => l.list({ limit: 0.5 }), { err: POSITIVE }],
  ['list({limit: null})', (_s, l) => l.list({ limit: null }), { err: POSITIVE }],
  ['list({limit: "abc"})', (_s, l) => l.list({ limit: 'abc' }), { err: POSITIVE }],
  ['list({limit: 2 ** 31})', (_s, l) => l.list({ limit: 2 ** 31 }), { err: RANGE }],
  ['list({limit: -(2 ** 31) - 1})', (_s, l) => l.list({ limit: -(2 ** 31) - 1 }), { err: RANGE }],
  ['list({limit: 2 ** 31 - 1})', async (s, l) => { await put(s, abc); return l.list({ limit: 2 ** 31 - 1 }); }, { ok: new Map(Object.entries(abc)) }],
  ['list({limit: 1n})', (_s, l) => l.list({ limit: 1n }), { err: 'TypeError: Cannot convert a BigInt value to a number' }],
  ['list({limit: Symbol})', (_s, l) => l.list({ limit: Symbol('x') }), { err: 'TypeError: Cannot convert a Symbol value to a number' }],
  ['list({prefix: 1})', async (s, l) => { await put(s, { '1a': 1, '2b': 2 }); return l.list({ prefix: 1 }); }, { ok: new Map([['1a', 1]]) }],
  ['list({prefix: null}) is "null"', async (s, l) => { await put(s, { null1: 1, '2b': 2 }); return l.list({ prefix: null }); }, { ok: new Map([['null1', 1]]) }],
  ['list({start: 2})', async (s, l) => { await put(s, { 1: 1, 2: 2, 3: 3 }); return l.list({ start: 2 }); }, { ok: new Map([['2', 2], ['3', 3]]) }],
  ['list({startAfter: 2})', async (s, l) => { await put(s, { 1: 1, 2: 2, 3: 3 }); return l.list({ startAfter: 2 }); }, { ok: new Map([['3', 3]]) }],
  ['list({end: 2})', async (s, l) => { await put(s, { 1: 1, 2: 2, 3: 3 }); return l.list({ end: 2 }); }, { ok: new Map([['1', 1]]) }],
  ['list({start: {}})', async (s, l) => { await s.put('[object Object]', 1); return l.list({ start: {} }); }, { ok: new Map([['[object Object]', 1]]) }],
  ['list({start: Symbol})', (_s, l) => l.list({ start: Symbol('x') }), { err: 'TypeError: Cannot convert a Symbol value to a string' }],
  ['list({reverse: "yes"})', async (s, l) => { await put(s, { 1: 1, 2: 2 }); return l.list({ reverse: 'yes' }); }, { ok: new Map([['2', 2], ['1', 1]]) }],
  ['list({start: undefined, startAfter})', (_s, l) => l.list({ start: undefined, startAfter: 'b' }), { ok: new Map() }],
  ['list({start, startAfter}) before the limit check', (_s, l) => l.list({ start: 'a', startAfter: 'b', limit: 0 }), { err: 'TypeError: list() cannot be called with both start and startAfter values.' }],
  ['list("x")', (_s, l) => l.list('x'), { err: PARAM('list', 1, 'ListOptions') }],
  ['list(5)', (_s, l) => l.list(5), { err: PARAM('list', 1, 'ListOptions') }],
  ['list(null) and list([])', async (_s, l) => [await l.list(null), await l.list([])], { ok: [new Map(), new Map()] }],
  // put
  ['put() with no arguments', (_s, l) => l.put(), { err: PARAM('put', 1, 'string or object') }],
  ['put(key) with no value', (_s, l) => l.put('k'), { err: 'TypeError: put() called with undefined value.' }],
  ['put(undefined, v) writes "undefined"', async (s, l) => { await l.put(undefined, 5); return s.get('undefined'); }, { ok: 5 }],
  ['put(null, v) writes "null"', async (s, l) => { await l.put(null, 5); return s.get('null'); }, { ok: 5 }],
  ['put(true, v) and put(10n, v)', async (s, l) => { await l.put(true, 1); await l.put(10n, 2); return keys(s); }, { ok: [['10', 2], ['true', 1]] }],
  ['put(array, v) writes the joined key', async (s, l) => { await l.put(['x', 'y'], 3); return keys(s); }, { ok: [['x,y', 3]] }],
  ['put(array) is a key without a value', (_s, l) => l.put(['x', 'y']), { err: 'TypeError: put() called with undefined value.' }],
  ['put(key, v, "x")', (_s, l) => l.put('k', 1, 'x'), { err: PARAM('put', 3, 'PutOptions') }],
  ['put(key, v, null)', async (s, l) => { await l.put('k', 1, null); return keys(s); }, { ok: [['k', 1]] }],
  ['put(entries) skips undefined values', async (s, l) => { await l.put({ a: 1, b: undefined }); return keys(s); }, { ok: [['a', 1]] }],
  ['put(entries, "x")', (_s, l) => l.put({ a: 1 }, 'x'), { err: SHAPE }],
  ['put(entries, 5)', (_s, l) => l.put({ a: 1 }, 5), { err: SHAPE }],
  ['put(entries, null / [] / fn, extra) are options', async (s, l) => {
    await l.put({ a: 1 }, null); await l.put({ b: 2 }, []); await l.put({ c: 3 }, () => 1); await l.put({ d: 4 }, {}, 'ignored');
    return keys(s);
  }, { ok: [['a', 1], ['b', 2], ['c', 3], ['d', 4]] }],
  ['put(Map) and put(Date) are entries with no own fields', async (s, l) => { await l.put(new Map([['a', 1]])); await l.put(new Date(0)); return keys(s); }, { ok: [] }],
  ['put(Date, v)', (_s, l) => l.put(new Date(0), 1), { err: SHAPE }],
  ['put(fn, v)', (_s, l) => l.put(() => 1, 2), { err: SHAPE }],
  ['put(entries) reads own enumerable string keys and getters', async (s, l) => {
    const entries = Object.create({ inherited: 1 }) as Record<string | symbol, unknown>;
    entries.own = 2;
    entries[Symbol('s')] = 3;
    Object.defineProperty(entries, 'hidden', { value: 4, enumerable: false });
    Object.defineProperty(entries, 'getter', { get: () => 5, enumerable: true });
    await l.put(entries);
    return keys(s);
  }, { ok: [['getter', 5], ['own', 2]] }],
  ['put(Symbol, v)', (_s, l) => l.put(Symbol('a'), 1), { err: 'TypeError: Cannot convert a Symbol value to a string' }],
  // delete, deleteAll, alarms
  ['delete() with no key', (_s, l) => l.delete(), { err: PARAM('delete', 1, 'string or Array') }],
  ['delete(undefined) deletes "undefined"', async (s, l) => { await s.put('undefined', 1); return l.delete(undefined); }, { ok: true }],
  ['delete(1) and delete({})', async (s, l) => { await put(s, { 1: 1, '[object Object]': 2 }); return [await l.delete(1), await l.delete({})]; }, { ok: [true, true] }],
  ['delete([undefined]) coerces each key', async (s, l) => { await s.put('undefined', 1); return l.delete([undefined]); }, { ok: 1 }],
  ['delete(keys) counts each existing key once', async (s, l) => { await put(s, { a: 1, b: 2 }); return l.delete(['a', 'b', 'a', 'c']); }, { ok: 2 }],
  ['delete(key, "x")', (_s, l) => l.delete('a', 'x'), { err: PARAM('delete', 2, 'PutOptions') }],
  ['delete(key, null)', (_s, l) => l.delete('a', null), { ok: false }],
  ['deleteAll("x")', (_s, l) => l.deleteAll('x'), { err: PARAM('deleteAll', 1, 'PutOptions') }],
  ['getAlarm("x")', (_s, l) => l.getAlarm('x'), { err: PARAM('getAlarm', 1, 'GetAlarmOptions') }],
  ['setAlarm(t, "x")', (_s, l) => l.setAlarm(Date.now() + 1e6, 'x'), { err: PARAM('setAlarm', 2, 'SetAlarmOptions') }],
  ['deleteAlarm("x")', (_s, l) => l.deleteAlarm('x'), { err: PARAM('deleteAlarm', 1, 'SetAlarmOptions') }],
  // the same checks on txn name the transaction interface
  ['txn.get() with no key', (s) => s.transaction((t) => (t as unknown as Loose).get()), { err: PARAM('get', 1, 'string or Array', 'DurableObjectTransaction') }],
  ['txn.list("x")', (s) => s.transaction((t) => (t as unknown as Loose).list('x')), { err: PARAM('list', 1, 'ListOptions', 'DurableObjectTransaction') }],
  ['txn.put(key, v, "x")', (s) => s.transaction((t) => (t as unknown as Loose).put('a', 1, 'x')), { err: PARAM('put', 3, 'PutOptions', 'DurableObjectTransaction') }],
  ['txn.list({limit: Infinity})', (s) => s.transaction((t) => t.list({ limit: Infinity })), { err: POSITIVE }],
];

class Alarmed extends Probe {
  alarm(): void {}
}

describe('KV argument handling matches workerd', () => {
  it.each(cases)('%s', async (_name, fn, expected) => {
    const run = probe(openNamespace(Alarmed, { backend: 'sqlite' }));
    const outcome = await run(async ({ storage }): Promise<Outcome & { error?: unknown }> => {
      try {
        return { ok: await fn(storage, loose(storage)) };
      } catch (err) {
        return { err: `${(err as Error).constructor === StorageTypeError ? 'TypeError' : (err as Error).name}: ${(err as Error).message}`, error: err };
      }
    });
    if ('err' in outcome && 'err' in expected) {
      expect(outcome.err).toBe(expected.err);
      expect(outcome.error).toBeInstanceOf(StorageTypeError);
      expect((outcome.error as StorageTypeError).code).toBe('ERR_STORAGE_ARGUMENT');
    } else {
      expect(outcome).toEqual(expected);
    }
  });
});
