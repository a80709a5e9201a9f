/** The generated corpus: values on both sides of every comparison, range edges, set members, prefixes. */
import { describe, expect, it } from 'vitest';
import { generateCorpus, probesOf } from '../../../src/policy/index.js';
import { parse } from '../../../src/expr/index.js';

const phase = 'http_request_firewall_custom' as const;
const values = (source: string) => probesOf(parse(source, { phase })).map((p) => p.values.map((v) => v.value));

describe('probesOf', () => {
  it('tries both sides of an integer comparison', () => {
    expect(values('cf.threat_score gt 10')).toEqual([[9, 10, 11]]);
  });

  it('tries every edge of a CIDR and of an IP range, and the address just outside', () => {
    expect(values('ip.src in {203.0.113.0/24 192.0.2.10..192.0.2.20}')).toEqual([[
      '203.0.112.255', '203.0.113.0', '203.0.113.255', '203.0.114.0',
      '192.0.2.9', '192.0.2.10', '192.0.2.20', '192.0.2.21',
    ]]);
  });

  it('tries each member of a string set and a non-member', () => {
    expect(values('ip.src.country in {"CN" "RU"}')).toEqual([['CN', 'RU', 'CN-not-a-member']]);
  });

  it('tries a path prefix, a longer path and a near miss', () => {
    expect(values('starts_with(http.request.uri.path, "/api")')).toEqual([['/api', '/api/x', '/ap', 'x/api']]);
    expect(values('http.request.uri.path matches "^/admin/.*"')[0]![0]).toBe('/admin/a');
    expect(values('http.request.uri.path wildcard "/img/*"')).toEqual([['/img/', '/img/abc', 'img/', '/IMG/']]);
  });

  it('reaches a header through lower() and a key index, in both cases', () => {
    const [p] = probesOf(parse('lower(http.request.headers["x-scan"][0]) eq "yes"', { phase }));
    expect(p!.target).toEqual({ field: 'http.request.headers', key: 'x-scan' });
    expect(p!.values.map((v) => v.value)).toEqual(['yes', 'yesx', 'ye', 'YES', 'YESX', 'YE']);
  });
});

describe('generateCorpus', () => {
  it('puts values where the service derives the field from, and combines the comparisons of an expression', () => {
    const corpus = generateCorpus(['starts_with(http.request.uri.path, "/api") and ip.src in {203.0.113.0/24}'], phase);
    const requests = corpus.map((c) => c.request);
    expect(requests).toContainEqual({ path: '/api', ip: '203.0.113.0' });
    expect(requests).toContainEqual({ path: '/ap', ip: '203.0.113.0' });
    expect(requests).toContainEqual({ path: '/api', ip: '203.0.114.0' });
    expect(requests).toContainEqual({ ip: '203.0.112.255' });
    expect(new Set(requests.map((r) => JSON.stringify(r))).size).toBe(requests.length);
  });

  it('starts with a plain request and survives expressions with lists and functions it cannot invert', () => {
    const corpus = generateCorpus(['ip.src in $office or len(http.request.body.raw) gt 3', 'true'], phase);
    expect(corpus[0]).toEqual({ name: 'plain request', request: {} });
    expect(corpus.map((c) => c.request.fields?.['http.request.body.raw'])).toContain('aaaa');
  });
});

describe('the witness of an expression with not', () => {
  it('gives a negated comparison a value that makes it false, so the expression holds', () => {
    const corpus = generateCorpus(['starts_with(http.request.uri.path, "/api/") and not ip.src in {203.0.113.0/24}'], phase);
    expect(corpus.find((c) => c.name === 'witness')!.request).toEqual({ path: '/api/', ip: '203.0.112.255' });
  });
});
