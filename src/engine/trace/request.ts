/**
 * The trace's request description: `{ method?, url? | (scheme?, host?, path?, query?), headers?,
 * ip?, country?, body?, fields? }`, validated, turned into the Rules language's request fields by
 * `src/expr`'s `requestFields` (`fields` adds or overrides any catalog field, e.g.
 * `"cf.threat_score": 40`), and wrapped in one `ExecutionContext` so every expression of the trace
 * shares the converted values.
 */
import { ExecutionContext, RequestFieldError, convertFieldValue, getField, parseIp, requestFields, type FieldValue, type RequestDescription, type RequestFields } from '../../expr/index.js';
import { BodyReader, Problems, jsonType, requireObject, quote } from '../body-reader.js';

const Fields = ['method', 'url', 'scheme', 'host', 'path', 'query', 'headers', 'ip', 'country', 'body', 'fields'] as const;

/** Reads the trace body into a request context; throws a 400 listing every problem. */
export function readTraceRequest(body: unknown): { request: ExecutionContext; description: RequestDescription } {
  const problems = new Problems();
  const r = new BodyReader(requireObject(body, 'a request description'), '', problems);
  r.allowOnly(Fields);
  const desc: RequestDescription = {};
  const method = r.string('method', { nonEmpty: true });
  if (method !== undefined) desc.method = method;
  const url = r.string('url', { nonEmpty: true });
  if (url !== undefined) {
    if (r.has('host') || r.has('path') || r.has('query') || r.has('scheme')) problems.add('/url', 'give either url or scheme/host/path/query, not both');
    if (!URL.canParse(url)) problems.add('/url', `url ${quote(url)} is not an absolute URL (e.g. "https://example.com/login?x=1")`);
    else desc.url = url;
  }
  const scheme = r.oneOf('scheme', ['http', 'https'] as const);
  if (scheme !== undefined) desc.scheme = scheme;
  for (const key of ['host', 'path', 'ip', 'country', 'body'] as const) {
    const v = r.string(key);
    if (v !== undefined) desc[key] = v;
  }
  if (desc.ip !== undefined && parseIp(desc.ip) === undefined) problems.add('/ip', `ip ${quote(desc.ip)} is not an IPv4 or IPv6 address`);
  const query = readStringOrMap(r, 'query', problems);
  if (query !== undefined) desc.query = query;
  const headers = readStringOrMap(r, 'headers', problems, false);
  if (headers !== undefined && typeof headers !== 'string') desc.headers = headers;
  const fields = readFields(r, problems);
  if (fields !== undefined) desc.fields = fields;
  problems.throwIfAny();
  return { request: new ExecutionContext(requestFields(desc)), description: desc };
}

function readStringOrMap(r: BodyReader, key: string, problems: Problems, allowString = true): string | Record<string, string | string[]> | undefined {
  if (!r.has(key)) return undefined;
  const v = r.raw(key);
  if (allowString && typeof v === 'string') return v;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.add(r.at(key), `${key} must be ${allowString ? 'a string or ' : ''}an object of name -> value (or array of values), got ${jsonType(v)}`);
    return undefined;
  }
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    if (typeof value === 'string' || (Array.isArray(value) && value.every((x) => typeof x === 'string'))) out[name] = value as string | string[];
    else problems.add(`${r.at(key)}/${name}`, `${key}.${name} must be a string or an array of strings, got ${jsonType(value)}`);
  }
  return out;
}

function readFields(r: BodyReader, problems: Problems): RequestFields | undefined {
  if (!r.has('fields')) return undefined;
  const v = r.raw('fields');
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.add('/fields', `fields must be an object of Rules language field -> value, got ${jsonType(v)}`);
    return undefined;
  }
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    const def = getField(name);
    if (def === undefined) {
      problems.add(`/fields/${name}`, `unknown field ${quote(name)}: fields takes names of the Rules language's field catalog (e.g. "cf.threat_score")`);
      continue;
    }
    // Values are converted lazily during evaluation; check them now so a bad one is always refused.
    try {
      convertFieldValue(name, value as FieldValue, def.type, name.includes('headers'));
    } catch (err) {
      if (!(err instanceof RequestFieldError)) throw err;
      problems.add(`/fields/${name}`, err.message);
    }
  }
  return v as RequestFields;
}
