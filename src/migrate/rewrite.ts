/**
 * Rewrites a manifest for the migration: `previous_waf` goes, `managed_rules` and `waf_migration`
 * take its place, and every other byte of the file stays as the user wrote it. The `yaml` Document
 * API locates the top-level sections (with their source ranges) and renders the new ones; the new
 * text is spliced into the original, so comments, quoting and spacing elsewhere are untouched. If
 * the file is not a block mapping (a flow mapping, say), the whole document is re-serialised instead.
 * Either way the result is parsed again and checked before it is returned.
 *
 * Comments inside `previous_waf` and the comment lines directly above its key go with it (they
 * describe settings that no longer exist); comment lines at column 0 after it stay (they usually
 * head the next section).
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { Document, isMap, isScalar, parseDocument } from 'yaml';
import type { Pair, YAMLMap } from 'yaml';
import { ZonewallError } from '../errors.js';
import type { ManagedRuleEntry } from './managed-rules.js';

/** What the rewrite sets. */
export interface RewriteChanges {
  /** The new `managed_rules`; undefined keeps the manifest's own (or none). */
  managedRules?: ManagedRuleEntry[];
  /** The migration mode to record; undefined removes `waf_migration`. */
  wafMigration?: 'none' | 'validation' | 'pending';
}

/** The comment written above the new `managed_rules` when it replaces `previous_waf`. */
export const MigratedComment = ' Converted from previous_waf by `zonewall migrate`: review its equivalence report.';

/** One text replacement: [start, end) of the original becomes `text`. */
interface Edit { start: number; end: number; text: string }

/** A top-level pair with its key name. */
type TopPair = Pair<unknown, unknown> & { key: { value: unknown; range?: [number, number, number] | null } };

/** Finds a top-level key of the document's mapping. */
function findPair(map: YAMLMap, name: string): TopPair | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === name) as TopPair | undefined;
}

/** Start of the line holding `offset`. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Whether the source indents sequences under their key (`key:\n  - x`) or not (`key:\n- x`). */
function indentsSequences(text: string): boolean {
  return !/^([A-Za-z_][\w-]*):[ \t]*\r?\n-[ \t]/m.test(text);
}

/** Renders top-level `key: value` pairs as block YAML; nothing for no pairs. */
function renderPairs(pairs: [string, unknown][], text: string, comment?: string): string {
  if (pairs.length === 0) return '';
  const doc = new Document(Object.fromEntries(pairs));
  flowSmallMaps(doc);
  if (comment !== undefined && isMap(doc.contents)) {
    const first = doc.contents.items[0];
    if (first !== undefined && isScalar(first.key)) first.key.commentBefore = comment;
  }
  const rendered = doc.toString({ indentSeq: indentsSequences(text), lineWidth: 0 });
  // Keep the file's line endings.
  return text.includes('\r\n') ? rendered.replace(/\r?\n/g, '\r\n') : rendered;
}

/** Writes category and rule overrides as one-line flow maps (`- { id: ..., action: log }`). */
function flowSmallMaps(doc: Document): void {
  const root = doc.contents;
  if (!isMap(root)) return;
  const list = root.get('managed_rules');
  if (list === null || typeof list !== 'object' || !('items' in list)) return;
  for (const entry of (list as { items: unknown[] }).items) {
    if (!isMap(entry)) continue;
    const overrides = entry.get('overrides');
    if (!isMap(overrides)) continue;
    for (const key of ['categories', 'rules']) {
      const items = overrides.get(key);
      if (items === null || typeof items !== 'object' || !('items' in items)) continue;
      for (const item of (items as { items: unknown[] }).items) if (isMap(item)) item.flow = true;
    }
  }
}

/**
 * The span a top-level pair occupies, from the start of its line (and of the comment lines directly
 * above it, when `withCommentsAbove`) to the end of its value, leaving trailing blank lines and
 * column-0 comments outside.
 */
function pairSpan(text: string, pair: TopPair, withCommentsAbove: boolean): [number, number] {
  const keyRange = pair.key.range;
  const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range;
  if (!keyRange) throw new ZonewallError('ERR_INTERNAL', 'manifest rewrite: a top-level key has no source range');
  let start = lineStart(text, keyRange[0]);
  if (withCommentsAbove) {
    while (start > 0) {
      const above = lineStart(text, start - 1);
      if (!/^[ \t]*#/.test(text.slice(above, start))) break;
      start = above;
    }
  }
  let end = valueRange ? valueRange[2] : keyRange[2];
  const nl = text.indexOf('\n', end - 1);
  if (end > 0 && text[end - 1] !== '\n') end = nl === -1 ? text.length : nl + 1;
  // Give back trailing blank lines and column-0 comments: they belong to what follows.
  for (;;) {
    const last = lineStart(text, end - 1 < start ? start : end - 1);
    if (last <= start) break;
    const line = text.slice(last, end);
    if (!/^(#.*)?\r?\n?$/.test(line) && line.trim() !== '') break;
    end = last;
  }
  return [start, end];
}

/** Applies edits (non-overlapping) to the text. */
function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  // Last first, so earlier offsets stay valid; at one offset the removal runs before the insertion.
  for (const e of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The edits that splice the new sections into a block-mapping manifest. */
function spliceEdits(text: string, map: YAMLMap, changes: RewriteChanges): Edit[] {
  const previous = findPair(map, 'previous_waf');
  const managed = findPair(map, 'managed_rules');
  const migration = findPair(map, 'waf_migration');
  const edits: Edit[] = [];
  const newPairs: [string, unknown][] = changes.managedRules === undefined ? [] : [['managed_rules', changes.managedRules]];
  const migrationPair: [string, unknown][] = changes.wafMigration === undefined ? [] : [['waf_migration', changes.wafMigration]];
  if (migration) {
    const [start, end] = pairSpan(text, migration, false);
    edits.push({ start, end, text: renderPairs(migrationPair, text) });
  } else {
    newPairs.push(...migrationPair);
  }
  if (previous && managed) edits.push(spanEdit(text, previous, ''));
  if (managed) {
    const [start, end] = pairSpan(text, managed, false);
    // Without new managed_rules the manifest's own stay as written; new pairs go right after them.
    edits.push(changes.managedRules === undefined
      ? { start: end, end, text: renderPairs(newPairs, text) }
      : { start, end, text: renderPairs(newPairs, text) });
  } else if (previous) {
    edits.push(spanEdit(text, previous, renderPairs(newPairs, text, changes.managedRules !== undefined ? MigratedComment : undefined)));
  } else {
    const tail = text.length === 0 || text.endsWith('\n') ? '' : '\n';
    const rendered = renderPairs(newPairs, text);
    if (rendered !== '') edits.push({ start: text.length, end: text.length, text: tail + rendered });
  }
  return edits;
}

/** An edit replacing a pair's span (with the comments above it) by `replacement`. */
function spanEdit(text: string, pair: TopPair, replacement: string): Edit {
  const [start, end] = pairSpan(text, pair, true);
  // A section removed from between two blank lines takes one of them along.
  const blankAfter = /^[ \t]*\r?\n/.exec(text.slice(end));
  const blankBefore = start === 0 || /\n[ \t]*\r?\n$/.test(text.slice(0, start));
  const extra = replacement === '' && blankAfter !== null && blankBefore ? blankAfter[0].length : 0;
  return { start, end: end + extra, text: replacement };
}

/** Re-serialises the whole document with the Document API (for manifests that are not block mappings). */
function reserialise(doc: Document, changes: RewriteChanges): string {
  const map = doc.contents as YAMLMap;
  const previousIndex = map.items.findIndex((p) => isScalar(p.key) && p.key.value === 'previous_waf');
  map.delete('previous_waf');
  if (changes.managedRules !== undefined) {
    const node = doc.createNode(changes.managedRules);
    if (map.has('managed_rules') || previousIndex < 0) map.set('managed_rules', node);
    else map.items.splice(previousIndex, 0, doc.createPair('managed_rules', node) as Pair<unknown, unknown>);
  }
  if (changes.wafMigration === undefined) map.delete('waf_migration');
  else map.set('waf_migration', changes.wafMigration);
  return doc.toString({ lineWidth: 0 });
}

/** Checks that the rewritten text parses and says what was asked. */
function verify(text: string, changes: RewriteChanges): boolean {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return false;
  const js = doc.toJS() as Record<string, unknown> | null;
  if (js === null || typeof js !== 'object') return false;
  return !('previous_waf' in js)
    && (changes.managedRules === undefined || JSON.stringify(js.managed_rules) === JSON.stringify(changes.managedRules))
    && js.waf_migration === changes.wafMigration;
}

/**
 * Rewrites manifest text: `previous_waf` removed, `managed_rules` set (in place of `previous_waf`
 * when there was no `managed_rules` yet), `waf_migration` set or removed.
 *
 * @example rewriteManifest('zone: a.com\nprevious_waf: {}\n', { managedRules: [{ ruleset: 'managed' }], wafMigration: 'pending' })
 */
export function rewriteManifest(text: string, changes: RewriteChanges): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new ZonewallError('ERR_MANIFEST', `cannot rewrite the manifest: ${doc.errors[0].message}`);
  }
  if (!isMap(doc.contents)) {
    throw new ZonewallError('ERR_MANIFEST', 'cannot rewrite the manifest: its top level is not a mapping');
  }
  if (!doc.contents.flow) {
    const spliced = applyEdits(text, spliceEdits(text, doc.contents, changes));
    if (verify(spliced, changes)) return spliced;
  }
  const whole = reserialise(doc, changes);
  if (!verify(whole, changes)) {
    throw new ZonewallError('ERR_INTERNAL', 'manifest rewrite produced a document that does not read back as written');
  }
  return whole;
}

/** A unified diff of the manifest before and after, headed with its path. */
export function manifestDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  return createTwoFilesPatch(path, path, before, after, 'current', 'migrated', { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
