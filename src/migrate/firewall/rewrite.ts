/**
 * Rewrites a manifest's `filters` + `firewall_rules` into `custom_rules`. The converted rules take
 * the place of `firewall_rules` (or, when the manifest already has `custom_rules`, go first in it:
 * firewall rules ran before custom rules); `filters` goes; every other byte stays as written
 * (`yaml-splice.ts`). Each rule keeps the expression text its filter was written with. A manifest
 * that is not a block mapping is re-serialised with the Document API instead. The result is read
 * back and checked before it is returned.
 */
import { isMap, isScalar, parseDocument } from 'yaml';
import type { Document, YAMLMap } from 'yaml';
import { ZonewallError } from '../../errors.js';
import type { DesiredCustomRule, DesiredFilter } from '../../manifest/index.js';
import type { ConversionSource } from './convert.js';
import { applyEdits, findPair, lineStart, pairSpan, renderPairs, spanEdit, type Edit } from '../yaml-splice.js';

/** The comment written above converted rules. */
export const ConvertedComment = ' Converted from filters + firewall_rules by `zonewall migrate firewall-rules`: review its equivalence proof.';

/** A custom rule as the manifest writes it. */
type ManifestRule = Record<string, unknown>;

type Raw = Record<string, unknown>;

/** The expression text a filter was written with (its canonical form when the text is not found). */
function writtenExpression(js: Raw, filter: DesiredFilter | undefined, rule: DesiredCustomRule, ruleKey: string): string {
  const filters = js.filters as Raw | undefined;
  const rules = js.firewall_rules as Raw | undefined;
  const own = filter === undefined ? undefined
    : filter.inline ? ((rules?.[ruleKey] as Raw | undefined)?.filter as Raw | undefined)?.expression
      : (filters?.[filter.ref] as Raw | undefined)?.expression;
  return typeof own === 'string' && filter?.expression === rule.expression ? own : rule.expression;
}

/** One converted rule in manifest form: defaults left out. */
function manifestRule(rule: DesiredCustomRule, expression: string): ManifestRule {
  const out: ManifestRule = { action: rule.action, expression };
  if (rule.description !== '') out.description = rule.description;
  if (!rule.enabled) out.enabled = false;
  if (rule.actionParameters !== undefined) out.action_parameters = { ...rule.actionParameters };
  if (rule.logging !== undefined && !rule.logging.enabled) out.logging = { enabled: false };
  return out;
}

/** What the rewrite needs: the converted rules, the filters they came from, and each rule's firewall rule key. */
export interface FirewallRewrite {
  customRules: readonly DesiredCustomRule[];
  filters: readonly DesiredFilter[];
  /** custom rule ref -> the firewall rule key and filter it came from (the conversion's `sources`). */
  sources: ReadonlyMap<string, ConversionSource>;
}

/** Comments of the manifest's firewall rules (above a key, after it, after a flow rule), by the custom rule ref they became. */
type RuleComments = ReadonlyMap<string, string>;

function ruleComments(map: YAMLMap, sources: FirewallRewrite['sources']): Map<string, string> {
  const out = new Map<string, string>();
  const rules = map.get('firewall_rules', true);
  if (!isMap(rules)) return out;
  const refOf = new Map([...sources].map(([ref, s]) => [s.ruleKey, ref]));
  rules.items.forEach((pair, i) => {
    const key = pair.key as { value?: unknown; commentBefore?: string | null };
    const value = pair.value as { commentBefore?: string | null; comment?: string | null } | null;
    const parts = [i === 0 ? rules.commentBefore : undefined, key.commentBefore, value?.commentBefore, value?.comment].filter((c): c is string => typeof c === 'string' && c.trim() !== '');
    const ref = refOf.get(String(key.value));
    if (ref !== undefined && parts.length > 0) out.set(ref, parts.join('\n'));
  });
  return out;
}

/** Writes each rule's `action_parameters` and `logging` as one-line flow maps, and its firewall rule's comments above it. */
function flowRules(rules: unknown, comments: RuleComments): void {
  if (!isMap(rules)) return;
  for (const pair of rules.items) {
    const comment = isScalar(pair.key) ? comments.get(String(pair.key.value)) : undefined;
    if (comment !== undefined && isScalar(pair.key)) pair.key.commentBefore = comment;
    if (!isMap(pair.value)) continue;
    for (const key of ['action_parameters', 'logging']) {
      const node = pair.value.get(key);
      if (isMap(node)) node.flow = true;
    }
  }
}

/** The same, for a document holding the `custom_rules` section. */
function flowSection(comments: RuleComments): (doc: Document) => void {
  return (doc) => {
    if (isMap(doc.contents)) flowRules(doc.contents.get('custom_rules'), comments);
  };
}

/** The rules of an existing `custom_rules` value, as data (none for an empty or null value). */
function ruleEntriesOf(node: unknown): [string, unknown][] {
  // In the order written: a plain object would list keys like "20" and "3" first, in numeric order.
  if (!isMap(node)) return [];
  return node.items.map((p) => [String(isScalar(p.key) ? p.key.value : p.key), (p.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? p.value]);
}

/** The converted rules as manifest entries, in order (`js`: the manifest as data). */
export function convertedEntries(js: Raw, change: FirewallRewrite): [string, ManifestRule][] {
  const filters = new Map(change.filters.map((f) => [f.ref, f]));
  return change.customRules.map((rule) => {
    const source = change.sources.get(rule.ref);
    const expression = writtenExpression(js, filters.get(source?.filterRef ?? ''), rule, source?.ruleKey ?? rule.ref);
    return [rule.ref, manifestRule(rule, expression)];
  });
}

/** Indents every line of a block by `by` spaces. */
function indent(block: string, by: number): string {
  const pad = ' '.repeat(by);
  return block.replace(/^(?=.)/gm, pad);
}

/** The start of the comment lines directly above the line at `start` (they belong to that line's key). */
function aboveComments(text: string, start: number): number {
  let at = start;
  while (at > 0) {
    const above = lineStart(text, at - 1);
    if (!/^[ \t]*#/.test(text.slice(above, at))) break;
    at = above;
  }
  return at;
}

/** The edits of a block-mapping manifest. */
function spliceEdits(text: string, map: YAMLMap, entries: [string, ManifestRule][], comments: RuleComments): Edit[] {
  const filters = findPair(map, 'filters');
  const rules = findPair(map, 'firewall_rules');
  const custom = findPair(map, 'custom_rules');
  const edits: Edit[] = [];
  if (filters) edits.push(spanEdit(text, filters, ''));
  const existing = custom?.value;
  if (custom === undefined) {
    const section = renderPairs([['custom_rules', new Map(entries)]], text, ConvertedComment, flowSection(comments));
    if (rules) edits.push(spanEdit(text, rules, section));
    else edits.push({ start: text.length, end: text.length, text: (text === '' || text.endsWith('\n') ? '' : '\n') + section });
    return edits;
  }
  if (rules) edits.push(spanEdit(text, rules, ''));
  if (isMap(existing) && !existing.flow && existing.items.length > 0) {
    // Into the existing block map, before its first rule, at its indentation.
    const first = (existing.items[0]!.key as { range?: [number, number, number] | null }).range;
    if (!first) throw new ZonewallError('ERR_INTERNAL', 'manifest rewrite: a custom rule key has no source range');
    const column = first[0] - lineStart(text, first[0]);
    const body = renderPairs(entries, text, ConvertedComment, (doc) => flowRules(doc.contents, comments));
    const at = aboveComments(text, lineStart(text, first[0]));
    edits.push({ start: at, end: at, text: indent(body, column) });
  } else {
    const [start, end] = pairSpan(text, custom, false);
    const merged = new Map([...entries, ...ruleEntriesOf(existing)]);
    edits.push({ start, end, text: renderPairs([['custom_rules', merged]], text, ConvertedComment, flowSection(comments)) });
  }
  return edits;
}

/** Re-serialises the whole document (for manifests that are not block mappings). */
function reserialise(doc: Document, entries: [string, ManifestRule][]): string {
  const map = doc.contents as YAMLMap;
  const index = map.items.findIndex((p) => isScalar(p.key) && p.key.value === 'firewall_rules');
  const node = doc.createNode(new Map([...entries, ...ruleEntriesOf(map.get('custom_rules', true))]));
  map.delete('filters');
  map.delete('firewall_rules');
  if (map.has('custom_rules') || index < 0) map.set('custom_rules', node);
  else map.items.splice(Math.min(index, map.items.length), 0, doc.createPair('custom_rules', node) as YAMLMap['items'][number]);
  return doc.toString({ lineWidth: 0 });
}

/** Whether the text reads back with the converted rules first in `custom_rules` and no firewall sections. */
function verify(text: string, entries: [string, ManifestRule][], existingKeys: readonly string[]): boolean {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return false;
  const js = doc.toJS() as Raw | null;
  if (js === null || typeof js !== 'object' || 'filters' in js || 'firewall_rules' in js) return false;
  const custom = js.custom_rules as Raw | undefined;
  if (custom === undefined || custom === null) return entries.length === 0 && existingKeys.length === 0;
  const keys = ruleEntriesOf(doc.get('custom_rules', true)).map(([k]) => k);
  if (keys.join('\n') !== [...entries.map(([k]) => k), ...existingKeys].join('\n')) return false;
  return entries.every(([k, v]) => JSON.stringify(custom[k]) === JSON.stringify(v));
}

/**
 * Rewrites manifest text: `filters` and `firewall_rules` removed, the converted rules first in `custom_rules`.
 * @example rewriteFirewallRules(text, { customRules, filters: desired.filters, sources })
 */
export function rewriteFirewallRules(text: string, change: FirewallRewrite): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new ZonewallError('ERR_MANIFEST', `cannot rewrite the manifest: ${doc.errors[0]!.message}`);
  if (!isMap(doc.contents)) throw new ZonewallError('ERR_MANIFEST', 'cannot rewrite the manifest: its top level is not a mapping');
  const js = (doc.toJS() ?? {}) as Raw;
  const entries = convertedEntries(js, change);
  const existingKeys = ruleEntriesOf(doc.get('custom_rules', true)).map(([k]) => k);
  if (!doc.contents.flow) {
    const spliced = applyEdits(text, spliceEdits(text, doc.contents, entries, ruleComments(doc.contents, change.sources)));
    if (verify(spliced, entries, existingKeys)) return spliced;
  }
  const whole = reserialise(doc, entries);
  if (!verify(whole, entries, existingKeys)) {
    throw new ZonewallError('ERR_INTERNAL', 'firewall rules rewrite produced a document that does not read back as written');
  }
  return whole;
}
