/**
 * The checks of a case's request that JSON Schema cannot express: `url` is an absolute URL and is
 * not mixed with `scheme`/`host`/`path`/`query`; `ip` is an address; every name under `fields` is
 * a field of the Rules language's catalog and its value fits the field's type. The trace operation
 * refuses the same things, so a case that loads also runs against a live zone.
 */
import { RequestFieldError, convertFieldValue, fieldNames, getField, parseIp, type FieldValue } from '../expr/index.js';
import { closest, type DocPath, type ManifestIssue } from '../manifest/index.js';
import type { PositionedYaml } from './yaml.js';

const UrlParts = ['scheme', 'host', 'path', 'query'] as const;

/** Issues of one request object found at `path` (already valid against the schema). */
export function checkRequest(request: Record<string, unknown>, path: DocPath, doc: PositionedYaml): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  if (typeof request.url === 'string') {
    const mixed = UrlParts.filter((k) => request[k] !== undefined);
    if (mixed.length > 0) issues.push(doc.issue([...path, 'url'], `give either url or ${UrlParts.join('/')}, not both (this request also has ${mixed.join(', ')})`));
    if (!URL.canParse(request.url) || !/^https?:$/.test(new URL(request.url).protocol)) {
      issues.push(doc.issue([...path, 'url'], `must be an absolute http(s) URL such as "https://example.com/login?x=1" (got ${JSON.stringify(request.url)})`));
    }
  }
  if (typeof request.ip === 'string' && parseIp(request.ip.trim()) === undefined) {
    issues.push(doc.issue([...path, 'ip'], `must be an IPv4 or IPv6 address (got ${JSON.stringify(request.ip)})`));
  }
  const fields = request.fields;
  if (fields !== null && typeof fields === 'object') {
    for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
      issues.push(...checkField(name, value, [...path, 'fields', name], doc));
    }
  }
  return issues;
}

function checkField(name: string, value: unknown, path: DocPath, doc: PositionedYaml): ManifestIssue[] {
  const def = getField(name);
  if (def === undefined) {
    const hint = closest(name, fieldNames());
    return [doc.issue(path, `unknown field "${name}"${hint ? `; did you mean "${hint}"?` : ''}: fields takes names of the Rules language's field catalog (e.g. "cf.threat_score")`, 'key')];
  }
  if (value === null) return [doc.issue(path, `needs a value of type ${typeLabel(def.type.kind)}`)];
  try {
    convertFieldValue(name, value as FieldValue, def.type, name.includes('headers'));
    return [];
  } catch (err) {
    if (!(err instanceof RequestFieldError)) throw err;
    return [doc.issue(path, err.message.replace(/^request field [^:]+: /, ''))];
  }
}

function typeLabel(kind: string): string {
  return { Bytes: 'string', Int: 'integer', Ip: 'IP address', Bool: 'boolean', Array: 'list', Map: 'map' }[kind] ?? kind;
}
