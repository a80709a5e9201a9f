/**
 * Loading a cases file: YAML with positions, the JSON Schema, then the checks the schema cannot
 * make (requests, unique names), all issues collected at once: the latter run also in the cases the
 * schema flagged, and the cases that load are returned (`partial`) for the checks against the
 * manifest, so one run reports every error. `defaults.request` is merged into
 * every case here: the case's own properties win, `headers` and `fields` merge key by key, and a
 * case that gives `url` drops the defaults' `scheme`/`host`/`path`/`query` (and the other way
 * round), so the merged request is never ambiguous. The result does not depend on any manifest.
 */
import { readFile } from 'node:fs/promises';
import { fileErrorReason } from '../errors.js';
import { encodingIssue, formatPath, type DocPath, type ManifestIssue, type SourceLocation } from '../manifest/index.js';
import { burstProblems, burstSpecOf } from './burst.js';
import { checkExpectation } from './check-expect.js';
import { checkRequest } from './check-request.js';
import { checkVary } from './check-vary.js';
import { checkCasesSchema } from './schema.js';
import type { CaseExpectation, CaseFile, CaseRequest, TestCase } from './types.js';
import { readPositionedYaml, type PositionedYaml } from './yaml.js';

/** The outcome of loading a cases file: the cases when valid, and every issue. */
export interface CasesResult {
  file: string;
  cases?: CaseFile;
  issues: ManifestIssue[];
  /**
   * When the file has issues: the cases that loaded without any, so that later checks (the rule
   * names of `expect.matched` against the manifest) report theirs in the same run.
   */
  partial?: CaseFile;
}

type Raw = Record<string, unknown>;

/** Top-level keys of a zone manifest that a cases file never has. */
const ManifestSections: ReadonlySet<string> = new Set(['plan', 'filters', 'firewall_rules', 'custom_rules', 'rate_limiting_rules', 'managed_rules', 'previous_waf', 'page_rules', 'waf_migration', 'account', 'lists']);

/** Validates the text of a cases file. Never throws on bad input: problems are returned. */
export function parseCasesText(text: string, file: string): CasesResult {
  const doc = readPositionedYaml(text, file);
  if (doc.problems.length > 0) return { file, issues: doc.problems };
  if (doc.data === null || doc.data === undefined) {
    return { file, issues: [{ file, line: 1, column: 1, path: '', message: 'the file has no cases: write a list of cases, or a map with `cases:`' }] };
  }
  // A zone manifest given as the cases file (`--cases zone.yaml`): one line saying so, not a screen of unknown properties.
  const section = isRaw(doc.data) && doc.data.cases === undefined ? Object.keys(doc.data).find((k) => ManifestSections.has(k)) : undefined;
  if (section !== undefined) {
    return { file, issues: [doc.issue([section], 'this is a zone manifest, not a cases file: give it as the PATH of zonewall test, and --cases its .tests.yaml file', 'key')] };
  }
  const schemaIssues = checkCasesSchema(doc.data, doc);
  const top = doc.data;
  const list = Array.isArray(top) ? top : isRaw(top) ? top.cases : undefined;
  // A file whose outline is broken (no list of cases: the schema says so) has nothing more to check.
  if (!Array.isArray(list)) return { file, issues: schemaIssues };
  const base: DocPath = Array.isArray(top) ? [] : ['cases'];
  const { cases, issues } = checkCases(list, base, isRaw(top) ? top : {}, doc, schemaIssues);
  const out: CaseFile = { file, cases };
  if (isRaw(top) && typeof top.zone === 'string') {
    out.zone = top.zone;
    out.zoneLocation = location(doc, ['zone']);
  }
  if (issues.length > 0) return { file, issues, partial: out };
  return { file, cases: out, issues: [] };
}

/** True when the issue at `issuePath` is about `at` or something inside it. */
function under(issuePath: string, at: string): boolean {
  return issuePath === at || issuePath.startsWith(`${at}.`) || issuePath.startsWith(`${at}[`);
}

/**
 * Every case's checks beside the schema's issues, also in cases the schema flagged elsewhere, so one
 * run reports every error; the cases without any issue are built.
 */
function checkCases(list: unknown[], base: DocPath, top: Raw, doc: PositionedYaml, schemaIssues: ManifestIssue[]): { cases: TestCase[]; issues: ManifestIssue[] } {
  const flagged = (path: DocPath) => schemaIssues.some((i) => under(i.path, formatPath(path)));
  // What the schema already says about a place in a request is not said twice.
  const requestIssues = (request: Raw, path: DocPath) => {
    const at = formatPath(path);
    return checkRequest(request, path, doc).filter((r) => !schemaIssues.some((i) => under(i.path, at) && (under(r.path, i.path) || under(i.path, r.path))));
  };
  const rawDefaults = isRaw(top.defaults) ? top.defaults.request : undefined;
  const defaults = isRaw(rawDefaults) && !flagged(['defaults']) ? rawDefaults : undefined;
  const issues: ManifestIssue[] = [...schemaIssues, ...(defaults === undefined ? [] : requestIssues(defaults, ['defaults', 'request']))];
  const cases: TestCase[] = [];
  const names = new Map<string, number>();
  list.forEach((raw, i) => {
    const path = [...base, i];
    if (!isRaw(raw)) return;
    const own = isRaw(raw.request) ? raw.request : {};
    const found = requestIssues(own, [...path, 'request']);
    if (raw.burst !== undefined && !flagged([...path, 'burst'])) found.push(...burstProblems(raw.burst).map((p) => doc.issue([...path, 'burst', ...p.at], p.message)));
    if (raw.burst !== undefined && !flagged([...path, 'burst'])) found.push(...checkVary(raw.burst, [...path, 'burst'], doc));
    // Without a burst these were ignored, and a case that could not pass passed.
    if (raw.burst === undefined && isRaw(raw.expect)) {
      for (const k of ['first', 'acted'] as const) {
        if (raw.expect[k] !== undefined) found.push(doc.issue([...path, 'expect', k], `${k} judges a burst, and this case has none: add burst (count and over, or at), or remove ${k}`, 'key'));
      }
    }
    // Expectations no verdict meets together: the case could only fail.
    if (isRaw(raw.expect) && !flagged([...path, 'expect'])) found.push(...checkExpectation(raw.expect, [...path, 'expect'], (at, message) => doc.issue(at, message), raw.burst !== undefined));
    issues.push(...found);
    if (typeof raw.name === 'string') {
      const first = names.get(raw.name);
      if (first !== undefined) issues.push(doc.issue([...path, 'name'], `duplicate case name "${raw.name}": already used at line ${first}; names must be unique`));
      else names.set(raw.name, doc.issue([...path, 'name'], '').line);
    }
    if (found.length === 0 && !flagged(path)) cases.push(buildCase(raw, path, mergeRequest(defaults ?? {}, own), doc));
  });
  return { cases, issues };
}

function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads and validates a cases file. */
export async function loadCasesFile(file: string): Promise<CasesResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' && file !== '' ? 'no such file' : code === 'EACCES' ? 'permission denied'
      : code === 'EISDIR' ? 'is a directory, not a cases file (give --cases a .tests.yaml file)' : fileErrorReason(err);
    return { file, issues: [{ file: file === '' ? '""' : file, line: 0, column: 0, path: '', message: why }] };
  }
  const encoding = encodingIssue(file, text);
  if (encoding !== undefined) return { file, issues: [encoding] };
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
  if (rawExpect.first !== undefined) expect.first = { ...(rawExpect.first as NonNullable<CaseExpectation['first']>) };
  if (rawExpect.acted !== undefined) expect.acted = rawExpect.acted as number;
  const out: TestCase = { name: raw.name as string, request, expect, location: location(doc, [...path, 'name']) };
  if (rawExpect.matched !== undefined) {
    const list = typeof rawExpect.matched === 'string';
    expect.matched = list ? [rawExpect.matched as string] : [...(rawExpect.matched as string[])];
    out.matchedLocations = expect.matched.map((_, j) => location(doc, list ? [...path, 'expect', 'matched'] : [...path, 'expect', 'matched', j]));
    out.matchedPath = formatPath([...path, 'expect', 'matched']);
  }
  if (typeof raw.description === 'string') out.description = raw.description;
  if (isRaw(raw.burst)) out.burst = burstSpecOf(raw.burst);
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
