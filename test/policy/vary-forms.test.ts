/**
 * A burst's `vary` lists in every form a cases file may write them: the compact form (one value a
 * line, a block scalar), a YAML block list, a YAML flow list (IPv6 addresses plain: a `:` inside a
 * scalar), JSON arrays inside YAML, a flow list over several lines, and the whole cases file in JSON
 * (pretty and on one line). Every form gives the same burst and the same results. The JSON reader
 * (`yaml-json.ts`, which reads JSON cases files without the `yaml` package) gives the `yaml`
 * package's data and places every issue where the composed document does, valid files and invalid.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, readPlainYaml, type DocPath } from '../../src/manifest/index.js';
import { buildZoneModel, parseCasesText, runOffline, type CaseResult } from '../../src/policy/index.js';
import { readJsonDocument } from '../../src/policy/yaml-json.js';
import { readComposedYaml, readPositionedYaml } from '../../src/policy/yaml.js';
import { desiredOf } from './fixtures.js';

const N = 240;
const ip = Array.from({ length: N }, (_, j) => (j % 6 === 5 ? `2001:db8:${j.toString(16)}::1` : j % 60 === 7 ? '::1' : `192.0.2.${j % 50}`));
const path = Array.from({ length: N }, (_, j) => (j % 3 === 0 ? '/login' : j % 3 === 1 ? `/search?q=${j}` : `/api/v1/items/${j % 7}`));
const key = Array.from({ length: N }, (_, j) => `key-${j % 17}`);

const model = buildZoneModel(desiredOf(`zone: vary.example.com
plan: enterprise
rate_limiting_rules:
  login:
    action: block
    expression: http.request.uri.path eq "/login"
    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 2, mitigation_timeout: 600}
  api:
    action: managed_challenge
    expression: starts_with(http.request.uri.path, "/api/")
    ratelimit: {characteristics: ['http.request.headers["x-api-key"]'], period: 60, requests_per_period: 2, mitigation_timeout: 60}
  v6:
    action: block
    expression: ip.src in {2001:db8::/32}
    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 1, mitigation_timeout: 0}
`));

const head = 'cases:\n  - name: every client\n    request: { host: vary.example.com }\n    expect: { acted: 0 }\n    burst:\n      count: 2000\n      over: 300\n      vary:\n';

/** The cases file with `vary` lists written by `list(indent, values)` (the text after `ip:`). */
function yamlForm(list: (indent: string, values: string[]) => string): string {
  return `${head}        ip:${list('          ', ip)}        path:${list('          ', path)}        headers:\n          x-api-key:${list('            ', key)}`;
}

const jsonDoc = { cases: [{ name: 'every client', request: { host: 'vary.example.com' }, expect: { acted: 0 }, burst: { count: 2000, over: 300, vary: { ip, path, headers: { 'x-api-key': key } } } }] };

const forms: Record<string, string> = {
  compact: yamlForm((indent, values) => ` |\n${values.map((v) => `${indent}${v}\n`).join('')}`),
  'YAML block list': yamlForm((indent, values) => `\n${values.map((v) => `${indent}- ${v}\n`).join('')}`),
  'YAML flow list': yamlForm((_, values) => ` [${values.join(', ')}]\n`),
  'JSON arrays in YAML': yamlForm((_, values) => ` ${JSON.stringify(values)}\n`),
  'flow list over several lines': yamlForm((indent, values) => ` [\n${values.map((v) => `${indent}"${v}"`).join(',\n')}\n${indent}]\n`),
  'JSON file': `${JSON.stringify(jsonDoc, null, 2)}\n`,
  'JSON file on one line': JSON.stringify(jsonDoc),
  'JSON file, CRLF line ends': `${JSON.stringify(jsonDoc, null, 2).replace(/\n/g, '\r\n')}\r\n`,
};

const outcome = (results: CaseResult[]) => results.map(({ location: _location, ...r }) => r);

/** Every path of `data`'s nodes. */
function pathsOf(data: unknown, at: DocPath = []): DocPath[] {
  const out: DocPath[] = [at];
  if (Array.isArray(data)) data.forEach((v, i) => out.push(...pathsOf(v, [...at, i])));
  else if (typeof data === 'object' && data !== null) for (const [k, v] of Object.entries(data)) out.push(...pathsOf(v, [...at, k]));
  return out;
}

describe('vary lists in every form', () => {
  const compact = parseCasesText(forms.compact!, 'vary.tests.yaml');
  const expected = outcome(runOffline(model, compact.cases!.cases));

  it('the compact form loads and some rule acts (so the comparison below means something)', () => {
    expect(compact.issues).toEqual([]);
    expect(compact.cases!.cases[0]!.burst!.vary!.ip).toEqual(ip);
    expect([...expected[0]!.actual.matched].sort()).toEqual(['rate_limiting_rules.api', 'rate_limiting_rules.login', 'rate_limiting_rules.v6']);
  });

  it.each(Object.keys(forms).filter((f) => f !== 'compact'))('%s: the same burst and the same results as the compact form', (form) => {
    const loaded = parseCasesText(forms[form]!, 'vary.tests.yaml');
    expect(loaded.issues.map(formatIssue)).toEqual([]);
    expect(loaded.cases!.cases.map((c) => [c.name, c.request, c.expect, c.burst])).toEqual(compact.cases!.cases.map((c) => [c.name, c.request, c.expect, c.burst]));
    expect(outcome(runOffline(model, loaded.cases!.cases))).toEqual(expected);
  });

  it.each(Object.keys(forms))('%s: read by a fast reader (the fast YAML reader, or JSON as JSON), not composed by the yaml package', (form) => {
    const text = forms[form]!;
    expect(form.startsWith('JSON file') ? readJsonDocument(text) : readPlainYaml(text, 'vary.tests.yaml')).toBeDefined();
  });
});

describe('JSON cases files read without the yaml package', () => {
  const odd = JSON.stringify({ cases: [{ name: 'odd "values" \u00e9 \ud83d\ude00 \\/', request: { path: '/a\\b', fields: { 'cf.bot_management.score': 1e1, 'cf.threat_score': -0 } }, expect: { allowed: true }, note: [[], {}, [null, true, false, 0.5, 12345678901234567890, 1e-7]] }] }, null, 1)
    .replace('"\\\\/"', '"\\/"').replace('"/a\\\\b"', '"/a\\u005cb"');
  const texts: Record<string, string> = {
    pretty: forms['JSON file']!,
    'one line': forms['JSON file on one line']!,
    'odd values and escapes': odd,
    'schema errors, a bad IP, vary lists of two lengths and a duplicate name': JSON.stringify({ cases: [
      { name: 'a', request: { ip: '300.1.1.1', method: 7 }, expect: { action: 'blok' } },
      { name: 'a', request: { path: '/' }, burst: { count: 3, over: 1, vary: { ip: ['192.0.2.1', '192.0.2.2'], path: ['/a'] } }, expect: { acted: 'x' } },
      { request: {}, expect: {} },
    ] }, null, 2),
    'a list of cases at the top': JSON.stringify([{ name: 'x', request: { path: '/' }, expect: { allowed: true } }], null, 4),
  };

  it.each(Object.keys(texts))('%s: the yaml package\'s data and every issue placed as it places them', (name) => {
    const text = texts[name]!;
    const read = readPositionedYaml(text, 'c.tests.json');
    const composed = readComposedYaml(text, 'c.tests.json');
    expect(read.problems).toEqual([]);
    expect(read.data).toEqual(composed.data);
    for (const p of [...pathsOf(composed.data), ['cases', 0, 'missing'], ['cases', 99], ['cases', 'x', 'y']] as DocPath[]) {
      for (const anchor of ['node', 'key'] as const) expect(read.issue(p, 'm', anchor), `${JSON.stringify(p)} ${anchor}`).toEqual(composed.issue(p, 'm', anchor));
    }
    // The whole load, issues included, as through the yaml package (a comment after the JSON makes it YAML only).
    const viaYaml = parseCasesText(`${text}\n# composed\n`, 'c.tests.json');
    const viaJson = parseCasesText(text, 'c.tests.json');
    expect(viaJson.issues.map(formatIssue)).toEqual(viaYaml.issues.map(formatIssue));
    expect(viaJson.cases ?? viaJson.partial).toEqual(viaYaml.cases ?? viaYaml.partial);
  });

  it('leaves to the yaml package what JSON and YAML read differently, or what only YAML reports', () => {
    for (const text of ['{"a": 1, "a": 2}', '{"__proto__": {"x": 1}}', '{"a":\t1}', '\ufeff{"a": 1}', '{"a": 1} # c', '{"a": 1,}', '{"a": "x\ry"}', '{a: 1}', `${'['.repeat(40)}${']'.repeat(40)}`]) {
      const read = readPositionedYaml(text, 'c.json');
      const composed = readComposedYaml(text, 'c.json');
      expect([read.data, read.problems.map(formatIssue)], text).toEqual([composed.data, composed.problems.map(formatIssue)]);
    }
  });
});
