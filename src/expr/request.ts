/**
 * `requestFields(desc)`: builds the catalog fields of a request from a simple description (method,
 * URL parts, headers, client IP and geo data), the way the service derives them: header map keys
 * lower-cased with repeated headers in order, header names in original case, `http.user_agent`,
 * `http.referer`, `http.cookie`, `http.x_forwarded_for` from their headers ("" when absent, as the
 * service does), the URI fields (`http.request.uri`, `.path`, `.path.extension`, `.query`,
 * `.args`, `full_uri`, and their `raw.` twins), `ssl` and the edge port from the scheme. Used by
 * `zonewall test`; `fields` overrides or adds any catalog field.
 */
import type { FieldValue, RequestFields } from './context.js';

/** A request in plain terms. */
export interface RequestDescription {
  method?: string;
  /** `https` (default) or `http`. */
  scheme?: 'http' | 'https';
  /** Host name; defaults to the Host header, else `example.com`. */
  host?: string;
  /** Path, optionally with `?query`; default `/`. */
  path?: string;
  /** Query string without `?` (overrides one in `path`), or name to value(s). */
  query?: string | Readonly<Record<string, string | readonly string[]>>;
  /** A full URL instead of scheme/host/path/query. */
  url?: string;
  /** Header name to value(s), original case. */
  headers?: Readonly<Record<string, string | readonly string[]>>;
  /** Client IP (`ip.src`). */
  ip?: string;
  country?: string;
  continent?: string;
  asn?: number;
  city?: string;
  /** `HTTP/1.1` by default. */
  version?: string;
  body?: string;
  /** Request time (Unix seconds; default now). */
  timestamp?: number;
  /** Extra or overriding catalog fields. */
  fields?: RequestFields;
}

/** What a request's headers make: the header map (lower-cased names, repeated values in order), names and values, and one header's value. */
interface HeaderParts {
  headerMap: Record<string, string[]>;
  names: string[];
  values: string[];
  header: (name: string) => string;
}

// One pass over the headers: the map (lower-cased names, repeated values in order), names and values.
function headerParts(given: RequestDescription['headers']): HeaderParts {
  const headerMap: Record<string, string[]> = {};
  const names: string[] = [];
  const values: string[] = [];
  if (given !== undefined) {
    for (const name in given) {
      const v = given[name]!;
      const key = name.toLowerCase();
      const list = (headerMap[key] ??= []);
      if (typeof v === 'string') {
        list.push(v);
        names.push(name);
        values.push(v);
      } else {
        for (const value of v) {
          list.push(value);
          names.push(name);
          values.push(value);
        }
      }
    }
  }
  const header = (name: string): string => {
    const list = headerMap[name];
    return list === undefined ? '' : list.length === 1 ? list[0]! : list.join(name === 'cookie' ? '; ' : ', ');
  };
  return { headerMap, names, values, header };
}

/** Writes the fields the headers make (all but the host) into `out`. */
function setHeaderFields(out: Record<string, FieldValue>, { headerMap, names, values, header }: HeaderParts): void {
  const cookie = header('cookie');
  out['http.user_agent'] = header('user-agent');
  out['http.referer'] = header('referer');
  out['http.cookie'] = cookie;
  out['http.x_forwarded_for'] = header('x-forwarded-for');
  out['http.request.cookies'] = cookie === '' ? {} : cookies(cookie);
  out['http.request.headers'] = headerMap;
  out['http.request.headers.names'] = names;
  out['http.request.headers.values'] = values;
  out['http.request.accepted_languages'] = headerMap['accept-language'] === undefined ? [] : languages(header('accept-language'));
}

/** Builds `RequestFields` from a description. */
export function requestFields(desc: RequestDescription): RequestFields {
  const url = splitUrl(desc);
  const parts = headerParts(desc.headers);
  const { headerMap, names, values, header } = parts;
  const host = url.host ?? headerMap['host']?.[0] ?? 'example.com';
  const uri = url.query === '' ? url.path : `${url.path}?${url.query}`;
  const args = queryArgs(url.query);
  const fullUri = `${url.scheme}://${host}${uri}`;
  const seconds = Math.floor(desc.timestamp ?? Date.now() / 1000);
  const cookie = header('cookie');
  const ext = extension(url.path);
  const https = url.scheme === 'https';
  // One literal (the fields the service always sets, the URI fields and their `raw.` twins), so
  // every request's record has the same shape.
  const out: Record<string, FieldValue> = {
    'http.host': host,
    'http.request.method': (desc.method ?? 'GET').toUpperCase(),
    'http.request.version': desc.version ?? 'HTTP/1.1',
    'http.user_agent': header('user-agent'),
    'http.referer': header('referer'),
    'http.cookie': cookie,
    'http.x_forwarded_for': header('x-forwarded-for'),
    'http.request.cookies': cookie === '' ? {} : cookies(cookie),
    'http.request.headers': headerMap,
    'http.request.headers.names': names,
    'http.request.headers.values': values,
    'http.request.headers.truncated': false,
    'http.request.accepted_languages': headerMap['accept-language'] === undefined ? [] : languages(header('accept-language')),
    'http.request.timestamp.sec': seconds,
    'http.request.timestamp.msec': seconds * 1000,
    ssl: https,
    'cf.edge.server_port': https ? 443 : 80,
    'cf.threat_score': 0,
    'cf.client.bot': false,
    'ip.src': desc.ip ?? '192.0.2.1',
    'http.request.full_uri': fullUri,
    'http.request.uri': uri,
    'http.request.uri.path': url.path,
    'http.request.uri.path.extension': ext,
    'http.request.uri.query': url.query,
    'http.request.uri.args': args.map,
    'http.request.uri.args.names': args.names,
    'http.request.uri.args.values': args.values,
    'raw.http.request.full_uri': fullUri,
    'raw.http.request.uri': uri,
    'raw.http.request.uri.path': url.path,
    'raw.http.request.uri.path.extension': ext,
    'raw.http.request.uri.query': url.query,
    'raw.http.request.uri.args': args.map,
    'raw.http.request.uri.args.names': args.names,
    'raw.http.request.uri.args.values': args.values,
  };
  addGeo(out, desc);
  if (desc.body !== undefined) {
    out['http.request.body.raw'] = desc.body;
    out['http.request.body.size'] = Buffer.byteLength(desc.body);
    out['http.request.body.truncated'] = false;
  }
  addOverrides(out, desc.fields);
  return out;
}

/**
 * `requestFields({ ...desc, headers })` made from `base`, the fields of `desc` itself
 * (`requestFields(desc)`), by building only the fields headers make: a copy of `base` with the
 * header map, names and values, user agent, referer, cookies, X-Forwarded-For and accepted
 * languages of `headers`, then `desc.fields` over them as `requestFields` does. For many requests
 * that differ in their headers alone (a burst's API keys). A host that comes from the Host header
 * (no `url`, no `host`) makes the URI fields too: then the whole record is built.
 */
export function requestFieldsWithHeaders(base: RequestFields, desc: RequestDescription, headers: Readonly<Record<string, string | readonly string[]>>): RequestFields {
  if (desc.url === undefined && desc.host === undefined) return requestFields({ ...desc, headers });
  const out: Record<string, FieldValue> = { ...(base as Record<string, FieldValue>) };
  setHeaderFields(out, headerParts(headers));
  addOverrides(out, desc.fields);
  return out;
}

// `fields` override or add.
function addOverrides(out: Record<string, FieldValue>, fields: RequestFields | undefined): void {
  if (fields === undefined) return;
  for (const name in fields) {
    // As a spread would: `__proto__` is an own key, never the prototype.
    if (name === '__proto__') Object.defineProperty(out, name, { value: fields[name], enumerable: true, writable: true, configurable: true });
    else out[name] = fields[name]!;
  }
}

function splitUrl(desc: RequestDescription): { scheme: string; host: string | undefined; path: string; query: string } {
  if (desc.url !== undefined) {
    const u = new URL(desc.url);
    return { scheme: u.protocol.replace(':', ''), host: u.host, path: u.pathname, query: u.search.replace(/^\?/, '') };
  }
  const raw = desc.path ?? '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  let query = q < 0 ? '' : raw.slice(q + 1);
  if (typeof desc.query === 'string') query = desc.query.replace(/^\?/, '');
  else if (desc.query) {
    query = Object.entries(desc.query)
      .flatMap(([k, v]) => (typeof v === 'string' ? [v] : [...v]).map((x) => `${k}=${x}`))
      .join('&');
  }
  return { scheme: desc.scheme ?? 'https', host: desc.host, path: path || '/', query };
}

function extension(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot <= 0 ? '' : last.slice(dot + 1).toLowerCase();
}

// `http.request.uri.args`: no decoding, repeated names in order.
function queryArgs(query: string): { map: Record<string, string[]>; names: string[]; values: string[] } {
  const map: Record<string, string[]> = {};
  const names: string[] = [];
  const values: string[] = [];
  for (const pair of query === '' ? [] : query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    (map[name] ??= []).push(value);
    names.push(name);
    values.push(value);
  }
  return { map, names, values };
}

// `http.request.cookies`: names URL-decoded.
function cookies(header: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = safeDecode(part.slice(0, eq).trim());
    (out[name] ??= []).push(part.slice(eq + 1).trim());
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function languages(header: string): string[] {
  return header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((x) => x !== undefined);
      return { tag: tag!.trim(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((l) => l.tag !== '' && l.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((l) => l.tag);
}

function addGeo(out: Record<string, FieldValue>, desc: RequestDescription): void {
  if (desc.country !== undefined) out['ip.src.country'] = desc.country;
  if (desc.continent !== undefined) out['ip.src.continent'] = desc.continent;
  if (desc.asn !== undefined) out['ip.src.asnum'] = desc.asn;
  if (desc.city !== undefined) out['ip.src.city'] = desc.city;
  // The deprecated aliases read the same data.
  for (const [alias, target] of [['ip.geoip.country', 'ip.src.country'], ['ip.geoip.continent', 'ip.src.continent'], ['ip.geoip.asnum', 'ip.src.asnum']] as const) {
    if (out[target] !== undefined) out[alias] = out[target]!;
  }
}
