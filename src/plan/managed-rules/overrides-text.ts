/**
 * A change of a managed ruleset's `overrides`, one line per override instead of two JSON blobs:
 * `rule 6179ae15… score_threshold: 40 -> 60`, `category wordpress enabled: (default) -> false`,
 * `action: (default) -> log` for the ruleset level. Overrides are compared in the planner's
 * normalised form (`diff.ts`: categories by name, rules by id). Text and markdown share it.
 */
import type { AttributeValue } from '../change.js';

/** One changed field of one override. */
export interface OverrideDelta {
  /** `rule 6179ae15…`, `category wordpress`, or '' for the ruleset level. */
  subject: string;
  field: string;
  before: string;
  after: string;
}

type Fields = Record<string, AttributeValue>;

function asObject(v: AttributeValue | undefined): Fields {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

function show(v: AttributeValue | undefined): string {
  return v === undefined ? '(default)' : typeof v === 'string' ? v : JSON.stringify(v);
}

/** A rule id as people scan it: the first 8 hex digits. */
function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/** The fields of `before` and `after` that differ, for one subject. */
function fieldDeltas(subject: string, before: Fields, after: Fields, skip: string): OverrideDelta[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((n) => n !== skip);
  return names.filter((n) => JSON.stringify(before[n]) !== JSON.stringify(after[n]))
    .map((n) => ({ subject, field: n, before: show(before[n]), after: show(after[n]) }));
}

/** Items of a list keyed by `key`. */
function byKey(list: AttributeValue | undefined, key: string): Map<string, Fields> {
  const out = new Map<string, Fields>();
  for (const item of Array.isArray(list) ? list : []) {
    const o = asObject(item);
    if (typeof o[key] === 'string') out.set(o[key], o);
  }
  return out;
}

/** Every changed field of every override between two normalised `overrides` values. */
export function overrideDeltas(before: AttributeValue | undefined, after: AttributeValue | undefined): OverrideDelta[] {
  const b = asObject(before);
  const a = asObject(after);
  const top = (o: Fields): Fields => Object.fromEntries(Object.entries(o).filter(([k]) => k === 'action' || k === 'enabled'));
  const out = fieldDeltas('', top(b), top(a), '');
  for (const [list, key, label] of [['categories', 'category', 'category'], ['rules', 'id', 'rule']] as const) {
    const lb = byKey(b[list], key);
    const la = byKey(a[list], key);
    for (const id of [...new Set([...lb.keys(), ...la.keys()])].sort()) {
      const subject = `${label} ${label === 'rule' ? shortId(id) : id}`;
      out.push(...fieldDeltas(subject, lb.get(id) ?? {}, la.get(id) ?? {}, key));
    }
  }
  return out;
}

/** `rule 6179ae15… score_threshold: 40 -> 60` (the arrow and the colours are the caller's). */
export function deltaLabel(d: OverrideDelta): string {
  return d.subject === '' ? `${d.field}` : `${d.subject} ${d.field}`;
}
