/**
 * The request tracer's body (`TracerRequestBody`, the service's shape) read into the request
 * description the trace evaluates: `url` and `method` (required), `headers`, `cookies` (joined into
 * the `Cookie` header), `body` (`plain_text`, `base64` or `json`), `protocol` (`http.request.version`),
 * `context.geoloc` (the `ip.src.*` geo fields), `context.bot_score` (`cf.bot_management.score`) and
 * `context.threat_score` (`cf.threat_score`); `skip_response` and `context.skip_challenge` change
 * nothing (the engine has no origin and runs no challenge). `zonewall: {ip, fields}` is zonewall's
 * extension: the client IP and any other Rules language field. Every problem is listed at once (400, 10014).
 */
import { BodyReader, Problems, jsonType, requireObject } from '../body-reader.js';
import { readTraceRequest } from './request.js';

const Fields = ['url', 'method', 'headers', 'cookies', 'body', 'protocol', 'skip_response', 'context', 'zonewall'] as const;

/** scheme, path, query of an absolute http(s) URL (the authority is read by `URL`). */
const UrlParts = /^(https?):\/\/[^/?#]+([^?#]*)(?:\?([^#]*))?/i;

/** `context.geoloc` key -> the Rules language field it sets (`iso_code` is the country). */
const GeoFields: Record<string, string> = {
  city: 'ip.src.city',
  continent: 'ip.src.continent',
  is_eu_country: 'ip.src.is_in_european_union',
  latitude: 'ip.src.lat',
  longitude: 'ip.src.lon',
  postal_code: 'ip.src.postal_code',
  region_code: 'ip.src.region_code',
  subdivision_2_iso_code: 'ip.src.subdivision_2_iso_code',
  timezone: 'ip.src.timezone.name',
};

/** Reads the tracer body into the trace operation's request description (then validated as one). */
export function readTracerRequest(body: unknown): ReturnType<typeof readTraceRequest> & { host: string } {
  const problems = new Problems();
  const r = new BodyReader(requireObject(body, 'a request tracer body'), '', problems);
  r.allowOnly(Fields);
  const url = r.string('url', { required: true, nonEmpty: true });
  const method = r.string('method', { required: true, nonEmpty: true });
  const desc: Record<string, unknown> = {};
  let host = '';
  if (url !== undefined) {
    // Split as written: the path and query keep their characters (no percent-encoding added), as the edge sees them.
    const parts = UrlParts.exec(url);
    if (parts === null || !URL.canParse(url)) problems.add('/url', `url ${JSON.stringify(url)} is not an absolute http(s) URL (e.g. "https://example.com/login?x=1")`);
    else {
      host = new URL(url).hostname;
      Object.assign(desc, { scheme: parts[1]!.toLowerCase(), host, path: parts[2] === '' ? '/' : parts[2], query: parts[3] ?? '' });
    }
  }
  if (method !== undefined) desc.method = method;
  const headers: Record<string, string | string[]> = { ...stringMap(r, 'headers', problems) };
  const cookies = stringMap(r, 'cookies', problems);
  if (cookies !== undefined && Object.keys(cookies).length > 0) {
    const pairs = Object.entries(cookies).map(([k, v]) => `${k}=${v}`);
    const cookieKey = Object.keys(headers).find((k) => k.toLowerCase() === 'cookie');
    if (cookieKey === undefined) headers.Cookie = pairs.join('; ');
    else headers[cookieKey] = [String(headers[cookieKey]), ...pairs].join('; ');
  }
  if (Object.keys(headers).length > 0) desc.headers = headers;
  readBody(r, problems, desc);
  const protocol = r.string('protocol', { nonEmpty: true });
  r.boolean('skip_response');
  const fields: Record<string, unknown> = {};
  if (protocol !== undefined) fields['http.request.version'] = protocol;
  readContext(r, problems, desc, fields);
  readExtension(r, problems, desc, fields);
  if (Object.keys(fields).length > 0) desc.fields = fields;
  problems.throwIfAny();
  return { ...readTraceRequest(desc), host };
}

function stringMap(r: BodyReader, key: string, problems: Problems): Record<string, string> | undefined {
  if (!r.has(key)) return undefined;
  const v = r.raw(key);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.add(r.at(key), `${key} must be an object of name -> string, got ${jsonType(v)}`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    if (typeof value === 'string') out[name] = value;
    else problems.add(`${r.at(key)}/${name}`, `${key}.${name} must be a string, got ${jsonType(value)}`);
  }
  return out;
}

function readBody(r: BodyReader, problems: Problems, desc: Record<string, unknown>): void {
  if (!r.has('body')) return;
  const b = new BodyReader(r.raw('body'), '/body', problems);
  b.allowOnly(['base64', 'json', 'plain_text']);
  const given = ['base64', 'json', 'plain_text'].filter((k) => b.has(k));
  if (given.length > 1) problems.add('/body', `body takes one of base64, json, plain_text; got ${given.join(' and ')}`);
  const plain = b.string('plain_text');
  const base64 = b.string('base64');
  if (plain !== undefined) desc.body = plain;
  else if (base64 !== undefined) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) problems.add('/body/base64', 'body.base64 is not base64');
    else desc.body = Buffer.from(base64, 'base64').toString('utf8');
  } else if (b.has('json')) desc.body = JSON.stringify(b.raw('json'));
}

function readContext(r: BodyReader, problems: Problems, desc: Record<string, unknown>, fields: Record<string, unknown>): void {
  if (!r.has('context')) return;
  const c = new BodyReader(r.raw('context'), '/context', problems);
  c.allowOnly(['geoloc', 'bot_score', 'threat_score', 'skip_challenge']);
  const bot = c.number('bot_score', { min: 1, max: 99 });
  if (typeof bot === 'number') fields['cf.bot_management.score'] = bot;
  const threat = c.number('threat_score', { min: 0, max: 100 });
  if (typeof threat === 'number') fields['cf.threat_score'] = threat;
  c.boolean('skip_challenge');
  if (!c.has('geoloc')) return;
  const g = new BodyReader(c.raw('geoloc'), '/context/geoloc', problems);
  g.allowOnly(['iso_code', ...Object.keys(GeoFields)]);
  const country = g.string('iso_code');
  if (country !== undefined) desc.country = country;
  for (const [key, field] of Object.entries(GeoFields)) {
    if (!g.has(key)) continue;
    const v = key === 'is_eu_country' ? g.boolean(key) : key === 'latitude' || key === 'longitude' ? g.number(key, { min: -180, max: 180 }) : g.string(key);
    if (v === undefined || v === null) continue;
    fields[field] = v;
  }
}

function readExtension(r: BodyReader, problems: Problems, desc: Record<string, unknown>, fields: Record<string, unknown>): void {
  if (!r.has('zonewall')) return;
  const z = new BodyReader(r.raw('zonewall'), '/zonewall', problems);
  z.allowOnly(['ip', 'fields']);
  const ip = z.string('ip');
  if (ip !== undefined) desc.ip = ip;
  if (!z.has('fields')) return;
  const f = z.raw('fields');
  if (typeof f !== 'object' || f === null || Array.isArray(f)) problems.add('/zonewall/fields', `zonewall.fields must be an object of Rules language field -> value, got ${jsonType(f)}`);
  else Object.assign(fields, f);
}
