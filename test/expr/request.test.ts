import { describe, expect, it } from 'vitest';
import { compile, ExecutionContext, parse, requestFields, requestFieldsWithHeaders, type FieldValue, type RequestDescription } from '../../src/expr/index.js';

describe('requestFields', () => {
  it('derives the URI, header, cookie and connection fields like the service', () => {
    const r = requestFields({
      method: 'get',
      url: 'http://shop.example.com:8080/a/B.HTML?x=1&x=2&y',
      headers: { 'User-Agent': 'curl/8', 'X-Forwarded-For': '198.51.100.1', Cookie: 'a%20b=1; c=2', 'Accept-Language': 'fr;q=0.5, en-GB' },
      ip: '2001:db8::1',
      country: 'FR',
      timestamp: 1700000000.9,
    });
    expect(r).toMatchObject({
      'http.host': 'shop.example.com:8080',
      'http.request.method': 'GET',
      'http.request.uri': '/a/B.HTML?x=1&x=2&y',
      'http.request.uri.path': '/a/B.HTML',
      'http.request.uri.path.extension': 'html',
      'http.request.uri.query': 'x=1&x=2&y',
      'http.request.full_uri': 'http://shop.example.com:8080/a/B.HTML?x=1&x=2&y',
      'raw.http.request.uri.path': '/a/B.HTML',
      'http.request.uri.args': { x: ['1', '2'], y: [''] },
      'http.request.uri.args.names': ['x', 'x', 'y'],
      'http.user_agent': 'curl/8',
      'http.x_forwarded_for': '198.51.100.1',
      'http.referer': '',
      'http.cookie': 'a%20b=1; c=2',
      'http.request.cookies': { 'a b': ['1'], c: ['2'] },
      'http.request.headers.names': ['User-Agent', 'X-Forwarded-For', 'Cookie', 'Accept-Language'],
      'http.request.accepted_languages': ['en-GB', 'fr'],
      ssl: false,
      'cf.edge.server_port': 80,
      'ip.src': '2001:db8::1',
      'ip.src.country': 'FR',
      'ip.geoip.country': 'FR',
      'http.request.timestamp.sec': 1700000000,
    });
    expect((r['http.request.headers'] as Record<string, string[]>)['user-agent']).toEqual(['curl/8']);
  });

  it('feeds compiled filters, with overrides', () => {
    const filter = compile(parse('http.request.headers["x-a"][1] eq "2" and ip.src.asnum eq 64500 and ssl'));
    expect(filter(requestFields({ headers: { 'X-A': ['1', '2'] }, fields: { 'ip.src.asnum': 64500 } }))).toBe(true);
    expect(filter(requestFields({ scheme: 'http', headers: { 'X-A': ['1', '2'] }, fields: { 'ip.src.asnum': 64500 } }))).toBe(false);
  });

  it('defaults to GET https://example.com/ from 192.0.2.1', () => {
    expect(requestFields({})).toMatchObject({ 'http.request.full_uri': 'https://example.com/', 'ip.src': '192.0.2.1', 'http.request.method': 'GET' });
  });
});

describe('requestFieldsWithHeaders', () => {
  const other = { 'User-Agent': 'b/2', Cookie: 'x=1', Referer: 'https://r.example/', 'Accept-Language': 'de, fr;q=0.5', 'X-Forwarded-For': '198.51.100.9', 'X-Api-Key': ['k1', 'k2'] };
  it('gives what requestFields gives the same request with other headers', () => {
    const descs: RequestDescription[] = [
      { host: 'a.example', path: '/p/x.js?q=1', headers: { 'user-agent': 'a/1', 'x-api-key': 'k0' }, ip: '192.0.2.9', timestamp: 5 },
      { url: 'http://b.example:8080/y', method: 'post', headers: { Cookie: 'c=3' }, timestamp: 5 },
      { host: 'c.example', timestamp: 5, fields: { 'http.user_agent': 'forced', 'cf.threat_score': 9 } },
    ];
    for (const d of descs) {
      expect(requestFieldsWithHeaders(requestFields(d), d, other)).toEqual(requestFields({ ...d, headers: other }));
    }
  });

  it('builds the whole record when the host comes from the Host header', () => {
    const d: RequestDescription = { path: '/z', headers: { Host: 'h1.example' }, timestamp: 5 };
    const fields = requestFieldsWithHeaders(requestFields(d), d, { Host: 'h2.example' });
    expect([fields['http.host'], fields['http.request.full_uri']]).toEqual(['h2.example', 'https://h2.example/z']);
  });

  it('leaves the base record as it was', () => {
    const d: RequestDescription = { host: 'a.example', headers: { 'user-agent': 'a/1' }, timestamp: 5 };
    const base = requestFields(d);
    const copy = structuredClone(base);
    requestFieldsWithHeaders(base, d, other);
    expect(base).toEqual(copy);
  });
});

describe('ExecutionContext.refresh', () => {
  it('reads a field changed in place anew, and drops memoised calls', () => {
    const fields: Record<string, FieldValue | undefined> = { ...requestFields({ ip: '10.0.0.1', path: '/a' }) };
    const context = new ExecutionContext(fields);
    const inRange = compile(parse('ip.src in {10.0.0.0/24}'));
    const memoised = compile(parse('lower(http.request.uri.path) eq "/a"'));
    expect([inRange(context), memoised(context)]).toEqual([true, true]);
    fields['ip.src'] = '10.0.1.1';
    fields['http.request.uri.path'] = '/b';
    // Unrefreshed, the context keeps the values it converted.
    expect(inRange(context)).toBe(true);
    context.refresh('ip.src');
    expect(inRange(context)).toBe(false);
    context.refresh('http.request.uri.path');
    expect(memoised(context)).toBe(false);
  });

  it('reads a header container anew after its field is refreshed (the last container read is dropped)', () => {
    const fields: Record<string, FieldValue | undefined> = { ...requestFields({ headers: { 'X-Api-Key': 'key-2' } }) };
    const context = new ExecutionContext(fields);
    const key1 = compile(parse('any(http.request.headers["x-api-key"][*] eq "key-1")'));
    expect(key1(context)).toBe(false);
    fields['http.request.headers'] = { 'x-api-key': ['key-1'] };
    context.refresh('http.request.headers');
    expect(key1(context)).toBe(true);
  });
});
