/**
 * Loading a cases file: YAML with positions, the JSON Schema, then the checks the schema cannot
 * make (requests, unique names), all issues collected at once. `defaults.request` is merged into
 * every case here: the case's own properties win, `headers` and `fields` merge key by key, and a
 * case that gives `url` drops the defaults' `scheme`/`host`/`path`/`query` (and the other way
 * round), so the merged request is never ambiguous. The result does not depend on any manifest.
 */
import { readFile } from 'node:fs/promises';
import { formatPath, type DocPath, type ManifestIssue, type SourceLocation } from '../manifest/index.js';
import { checkRequest } from './check-request.js';
import { checkCasesSchema } from './schema.js';
import type { CaseExpectation, CaseFile, CaseRequest, TestCase } from './types.js';
import { readPositionedYaml, type PositionedYaml } from './yaml.js';

/** The outcome of loading a cases file: the cases when valid, and every issue. */
export interface CasesResult {
  file: string;
  cases?: CaseFile;
  issues: ManifestIssue[];
}

type Raw = Record<string, unknown>;

/** Validates the text of a cases file. Never throws on bad input: problems are returned. */
export function parseCasesText(text: string, file: string): CasesResult {
  const doc = readPositionedYaml(text, file);
  if (doc.problems.length > 0) return { file, issues: doc.problems };
  if (doc.data === null || doc.data === undefined) {
    return { file, issues: [{ file, line: 1, column: 1, path: '', message: 'the file has no cases: write a list of cases, or a map with `cases:`' }] };
  }
  const schemaIssues = checkCasesSchema(doc.data, doc);
  if (schemaIssues.length > 0) return { file, issues: schemaIssues };
  const top = doc.data;
  const list = (Array.isArray(top) ? top : (top as Raw).cases) as Raw[];
  const base: DocPath = Array.isArray(top) ? [] : ['cases'];
  const defaults = Array.isArray(top) ? undefined : ((top as Raw).defaults as Raw | undefined)?.request as Raw | undefined;
  const issues: ManifestIssue[] = defaults === undefined ? [] : checkRequest(defaults, ['defaults', 'request'], doc);
  const cases: TestCase[] = [];
  const names = new Map<string, number>();
  list.forEach((raw, i) => {
    const path = [...base, i];
    const own = (raw.request as Raw | undefined) ?? {};
    issues.push(...checkRequest(own, [...path, 'request'], doc));
    const name = raw.name as string;
    const first = names.get(name);
    if (first !== undefined) issues.push(doc.issue([...path, 'name'], `duplicate case name "${name}": already used at line ${first}; names must be unique`));
    else names.set(name, doc.issue([...path, 'name'], '').line);
    cases.push(buildCase(raw, path, mergeRequest(defaults ?? {}, own), doc));
  });
  if (issues.length > 0) return { file, issues };
  const out: CaseFile = { file, cases };
  if (!Array.isArray(top) && typeof (top as Raw).zone === 'string') out.zone = (top as Raw).zone as string;
  return { file, cases: out, issues: [] };
}

/** Reads and validates a cases file. */
export async function loadCasesFile(file: string): Promise<CasesResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : err instanceof Error ? err.message : String(err);
    return { file, issues: [{ file, line: 0, column: 0, path: '', message: why }] };
  }
  return parseCasesText(text, file);
}

function location(doc: PositionedYaml, path: DocPath): SourceLocation {
  const { file, line, column } = doc.issue(path, '');
  return { file, line, column };
}

function buildCase(raw: Raw, path: DocPath, request: CaseRequest, doc: PositionedYaml): TestCase {
  const rawExpect = raw.expect as Raw;
  const expect: CaseExpectation = {};
  if (rawExpect.action !== undefined) expect.action = rawExpect.action as CaseExpectation['action'];
  if (rawExpect.allowed !== undefined) expect.allowed = rawExpect.allowed as boolean;
  const out: TestCase = { name: raw.name as string, request, expect, location: location(doc, [...path, 'name']) };
  if (rawExpect.matched !== undefined) {
    const list = typeof rawExpect.matched === 'string';
    expect.matched = list ? [rawExpect.matched as string] : [...(rawExpect.matched as string[])];
    out.matchedLocations = expect.matched.map((_, j) => location(doc, list ? [...path, 'expect', 'matched'] : [...path, 'expect', 'matched', j]));
    out.matchedPath = formatPath([...path, 'expect', 'matched']);
  }
  if (typeof raw.description === 'string') out.description = raw.description;
  return out;
}

const UrlParts = ['scheme', 'host', 'path', 'query'];

/** A case's request over the defaults (see the file comment for the rules). */
export function mergeRequest(defaults: Raw, own: Raw): CaseRequest {
  const base = { ...defaults };
  if (own.url !== undefined) for (const k of UrlParts) delete base[k];
  if (UrlParts.some((k) => own[k] !== undefined)) delete base.url;
  const merged: Raw = { ...base, ...own };
  if (base.fields !== undefined && own.fields !== undefined) merged.fields = { ...(base.fields as Raw), ...(own.fields as Raw) };
  if (base.headers !== undefined && own.headers !== undefined) {
    // Header names are case-insensitive: a case's `user-agent` replaces the defaults' `User-Agent`.
    const ownNames = new Set(Object.keys(own.headers as Raw).map((n) => n.toLowerCase()));
    const kept = Object.entries(base.headers as Raw).filter(([n]) => !ownNames.has(n.toLowerCase()));
    merged.headers = { ...Object.fromEntries(kept), ...(own.headers as Raw) };
  }
  return merged as CaseRequest;
}
