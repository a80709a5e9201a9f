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
import { isMap, isScalar, parseDocument } from 'yaml';
import type { Document, Pair, YAMLMap } from 'yaml';
import { ZonewallError } from '../errors.js';
import type { ManagedRuleEntry } from './managed-rules.js';
import { applyEdits, findPair, pairSpan, renderPairs as renderTopPairs, spanEdit, type Edit } from './yaml-splice.js';

/** Renders top-level pairs, overrides as one-line flow maps. */
function renderPairs(pairs: [string, unknown][], text: string, comment?: string): string {
  return renderTopPairs(pairs, text, comment, flowSmallMaps);
}

/** What the rewrite sets. */
export interface RewriteChanges {
  /** The new `managed_rules`; undefined keeps the manifest's own (or none). */
  managedRules?: ManagedRuleEntry[];
  /** The migration mode to record; undefined removes `waf_migration`. */
  wafMigration?: 'none' | 'validation' | 'pending';
}

/** The comment written above the new `managed_rules` when it replaces `previous_waf`. */
export const MigratedComment = ' Converted from previous_waf by `zonewall migrate`: review its equivalence report.';

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

/** Edits past which a line diff stops looking for common lines (its cost grows with their square). */
const MaxDiffEdits = 1000;

/**
 * A unified diff of the manifest before and after, headed with its path. A rewrite too large to
 * diff line by line quickly (whole sections of thousands of lines replaced) is shown as one hunk:
 * the changed middle removed and added, between the unchanged start and end.
 */
export function manifestDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const options = { context: 3, headerOptions: FILE_HEADERS_ONLY, maxEditLength: MaxDiffEdits };
  return createTwoFilesPatch(path, path, before, after, 'current', 'migrated', options) ?? replacementDiff(path, before, after);
}

function lines(text: string): string[] {
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** One hunk replacing everything between the common first and last lines, with 3 lines of context. */
function replacementDiff(path: string, before: string, after: string): string {
  const a = lines(before);
  const b = lines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - 3);
  const after3 = Math.min(3, tail);
  const oldEnd = a.length - tail + after3;
  const newEnd = b.length - tail + after3;
  const body = [
    ...a.slice(from, head).map((l) => ` ${l}`),
    ...a.slice(head, a.length - tail).map((l) => `-${l}`),
    ...b.slice(head, b.length - tail).map((l) => `+${l}`),
    ...a.slice(a.length - tail, oldEnd).map((l) => ` ${l}`),
  ];
  return `--- ${path}\tcurrent\n+++ ${path}\tmigrated\n@@ -${from + 1},${oldEnd - from} +${from + 1},${newEnd - from} @@\n${body.join('\n')}\n`;
}
