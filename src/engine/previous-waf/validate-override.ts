/**
 * Validation of a URI-based WAF override body (POST and PUT, reference §5): `urls` (required, simple
 * wildcards), `description` (string or null), `priority` (-1e9..1e9, lower first; default 1),
 * `paused`, `groups` (group id -> `default` or `disable`), `rules` (rule id -> one of default, disable,
 * simulate, block, challenge) and `rewrite_action` (one of those five -> one of those five). At
 * least one of `groups` and `rules` must be given and non-empty; every group and rule id must exist
 * in one of the zone's packages. A PUT may echo the override's `id`, which must match the path.
 */
import { BodyReader, Problems, jsonType, pointerToken, quote } from '../body-reader.js';
import { findAnyGroup, findAnyLegacyRule } from '../catalog/index.js';
import { WafOverrideActions, OverrideLimits } from './constants.js';
import type { WafOverride } from './model.js';

/** The override's fields as given (the id is assigned or taken from the path by the handler). */
export type OverrideFields = Omit<WafOverride, 'id'>;

/** Reads an override body; problems are recorded. */
export function readOverride(body: unknown, problems: Problems, pathId?: string): OverrideFields | undefined {
  const r = new BodyReader(body, '', problems, 'a URI-based WAF override object');
  if (!r.valid) return undefined;
  r.allowOnly(pathId === undefined ? ['urls', 'description', 'priority', 'paused', 'groups', 'rules', 'rewrite_action'] : ['id', 'urls', 'description', 'priority', 'paused', 'groups', 'rules', 'rewrite_action']);
  const id = r.string('id');
  if (pathId !== undefined && id !== undefined && id !== pathId) problems.add('/id', `id ${id} does not match the override in the path (${pathId})`);
  const urls = readUrls(r, problems);
  const description = r.raw('description') === null ? null : r.string('description', { maxLength: OverrideLimits.description }) ?? null;
  const priority = r.number('priority', { min: OverrideLimits.priorityMin, max: OverrideLimits.priorityMax }) ?? 1;
  const paused = r.boolean('paused') ?? false;
  const groups = readMap(r, 'groups', ['default', 'disable'], (k) => findAnyGroup(k) !== undefined, 'WAF rule group', problems);
  const rules = readMap(r, 'rules', WafOverrideActions, (k) => findAnyLegacyRule(k) !== undefined, 'WAF rule', problems);
  const rewrite = readMap(r, 'rewrite_action', WafOverrideActions, (k) => (WafOverrideActions as readonly string[]).includes(k), 'action', problems);
  if (Object.keys(groups).length === 0 && Object.keys(rules).length === 0) {
    problems.add('/rules', 'an override needs at least one entry in rules or groups (what to change for the URLs)');
  }
  if (urls === undefined) return undefined;
  return { description, urls, priority: priority as number, paused, groups, rules, rewrite_action: rewrite };
}

function readUrls(r: BodyReader, problems: Problems): string[] | undefined {
  if (!r.has('urls')) {
    problems.add('/urls', 'urls is required: the URL patterns the override applies to, e.g. ["shop.example.com/*"]');
    return undefined;
  }
  const raw = r.raw('urls');
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add('/urls', `urls must be a non-empty array of URL patterns, got ${Array.isArray(raw) ? 'an empty array' : jsonType(raw)}`);
    return undefined;
  }
  if (raw.length > OverrideLimits.urls) problems.add('/urls', `urls has ${raw.length} patterns; the limit is ${OverrideLimits.urls}`);
  raw.forEach((u, i) => {
    if (typeof u !== 'string' || u.trim() === '' || u.length > OverrideLimits.url) problems.add(`/urls/${i}`, `urls[${i}] must be a non-empty string of at most ${OverrideLimits.url} characters`);
    // A pattern twice is refused as every repeated value of a body is (decision: the reference is silent).
    else if (raw.indexOf(u) < i) problems.add(`/urls/${i}`, `urls lists ${JSON.stringify(u)} twice (also at /urls/${raw.indexOf(u)})`);
  });
  return raw as string[];
}

function readMap(r: BodyReader, key: string, values: readonly string[], known: (k: string) => boolean, what: string, problems: Problems): Record<string, string> {
  if (!r.has(key)) return {};
  const raw = r.raw(key);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.add(r.at(key), `${key} must be an object (id -> action), got ${jsonType(raw)}`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const at = `${r.at(key)}/${pointerToken(k)}`;
    if (!known(k)) problems.add(at, `unknown ${what} ${quote(k)}`);
    else if (typeof v !== 'string' || !values.includes(v)) problems.add(at, `${key}.${k} must be one of ${values.join(', ')}; got ${quote(v)}`);
    else out[k] = v;
  }
  return out;
}
