import { describe, expect, it } from 'vitest';
import { compile, parse, requestFields } from '../../src/expr/index.js';

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
