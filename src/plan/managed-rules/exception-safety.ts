/**
 * The guard of managed-rules exceptions (`--force` needed), as for custom skip rules: a new or
 * newly enabled exception lets the requests it matches past managed rules (`skips-managed-rules`);
 * one that skips more than before (rules, then whole rulesets, then `current`: the rest of the
 * entry point) or whose expression changed other than by narrowing (`<old> and ...`) may let more
 * through (`widens-exception`). Removing or disabling one makes the WAF inspect more: no finding.
 */
import { changeLabel as label, type AttributeValue, type Attributes, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { rulesetName } from './entrypoint-rules.js';
import { finding } from './findings.js';

/** What a skip attribute skips, as units: `*` (current), a ruleset id, or `ruleset/rule`. */
function units(skip: AttributeValue | undefined): Set<string> {
  if (skip === 'current') return new Set(['*']);
  const o = skip !== null && typeof skip === 'object' && !Array.isArray(skip) ? skip : {};
  if (Array.isArray(o.rulesets)) return new Set(o.rulesets.map(String));
  const out = new Set<string>();
  const rules = o.rules !== null && typeof o.rules === 'object' && !Array.isArray(o.rules) ? o.rules : {};
  for (const [rs, ids] of Object.entries(rules ?? {})) for (const id of Array.isArray(ids) ? ids : []) out.add(`${rs}/${String(id)}`);
  return out;
}

/** What `after` skips that `before` did not cover, in words. */
function skipsMore(before: AttributeValue | undefined, after: AttributeValue | undefined): string[] {
  const had = units(before);
  if (had.has('*')) return [];
  const out: string[] = [];
  for (const u of units(after)) {
    if (u === '*') { out.push('every managed rule after it (current)'); continue; }
    const [rs, rule] = u.split('/');
    if (had.has(u) || had.has(rs!)) continue;
    out.push(rule === undefined ? `ruleset ${rulesetName(rs!)}` : `rule ${rule} of ${rulesetName(rs!)}`);
  }
  return out;
}

/** What an exception skips, in words. */
export function skipText(skip: AttributeValue | undefined): string {
  const list = skipsMore(null, skip);
  return list.length > 0 ? list.join(', ') : 'nothing';
}

function narrowed(before: string, after: string): boolean {
  return after.startsWith(`${before} and `) || after.startsWith(`(${before}) and `);
}

/** Findings of a changed (not created) exception. */
export function exceptionChangeFindings(c: Change): Finding[] {
  const b = c.before;
  const a = c.after;
  if (b === null || a === null || c.action === 'no-op' || a.enabled !== true) return [];
  const about = { kind: c.kind, ref: c.ref };
  if (b.enabled !== true) return [finding('skips-managed-rules', `${label(c)}: the exception is enabled: the requests it matches are no longer inspected by ${skipText(a.skip)}`, about)];
  const out: Finding[] = [];
  const more = skipsMore(b.skip, a.skip);
  if (more.length > 0) out.push(finding('widens-exception', `${label(c)}: the exception now also skips ${more.join(', ')}`, about));
  if (b.expression !== a.expression && !narrowed(String(b.expression), String(a.expression))) {
    out.push(finding('widens-exception', `${label(c)}: its expression changed (${String(b.expression)} -> ${String(a.expression)}): it may let more requests past the managed rules it skips`, about));
  }
  return out;
}

/** Findings of the plan's new exceptions (creates are not given to `changeFindings`). */
export function newExceptionFindings(changes: readonly Change[]): Finding[] {
  return changes.filter((c) => c.kind === 'managed_exception' && c.action === 'create' && (c.after as Attributes).enabled === true)
    .map((c) => finding('skips-managed-rules', `${label(c)}: a new exception: the requests matching ${String(c.after!.expression)} are no longer inspected by ${skipText(c.after!.skip)}`, { kind: c.kind, ref: c.ref }));
}
