/**
 * Rewrites a zone's `zonewall test` cases file for the converted manifest, so the cases that held
 * before still hold after (the proof shows the verdicts are the same; only the names and words of
 * the old generation change): `matched` names `firewall_rules.<key>` become `custom_rules.<ref>`,
 * `action: allow` (an allow rule decided) becomes `allowed: true` (the request reaches the origin,
 * which is what a skip of the remaining rules leaves), `action: bypass` becomes `action: skip`.
 * Done through the `yaml` Document API, so comments and flow styles stay.
 */
import { isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';

/** The custom rule ref each firewall rule key became (every converted rule, renamed or not). */
export type CustomRefOf = ReadonlyMap<string, string>;

function renameScalar(node: unknown, refOf: CustomRefOf): boolean {
  if (!isScalar(node) || typeof node.value !== 'string' || !node.value.startsWith('firewall_rules.')) return false;
  const ref = refOf.get(node.value.slice('firewall_rules.'.length));
  if (ref === undefined) return false;
  node.value = `custom_rules.${ref}`;
  return true;
}

function rewriteExpect(expect: YAMLMap, refOf: CustomRefOf): boolean {
  let changed = false;
  const matched = expect.get('matched', true);
  if (isSeq(matched)) for (const item of matched.items) changed = renameScalar(item, refOf) || changed;
  else changed = renameScalar(matched, refOf) || changed;
  const action = expect.get('action');
  if (action === 'bypass') {
    expect.set('action', 'skip');
    changed = true;
  } else if (action === 'allow') {
    expect.delete('action');
    if (!expect.has('allowed')) expect.set('allowed', true);
    changed = true;
  }
  return changed;
}

/**
 * The cases file's text for the converted manifest (the same text when nothing names the old rules).
 * @example rewriteCases(text, new Map([['block-bots', 'block-bots']]))
 */
export function rewriteCases(text: string, refOf: CustomRefOf): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return text;
  const top = doc.contents;
  const list = isSeq(top) ? top : isMap(top) ? top.get('cases', true) : undefined;
  if (!isSeq(list)) return text;
  let changed = false;
  for (const item of list.items) {
    if (!isMap(item)) continue;
    const expect = item.get('expect', true);
    if (isMap(expect)) changed = rewriteExpect(expect, refOf) || changed;
  }
  return changed ? doc.toString({ lineWidth: 0 }) : text;
}
