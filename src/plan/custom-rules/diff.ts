/**
 * The `http_request_firewall_custom` phase: WAF custom rules, matched by ref so ids never churn.
 * One change per rule for review: create, update (attributes, and `position` when the rule moves),
 * delete, or no-op. A reorder moves as few rules as possible: the rules whose relative order is
 * kept (the longest such run, see `order.ts`) stay and show nothing; only the others show
 * `position 3 -> 1`. Live rules zonewall did not write (no ref, or the API's default ref, the id)
 * are listed and kept in place unless `--prune`. The writes (`writes.ts`) are chosen last.
 * Without a `custom_rules` section the phase is left alone.
 */
import type { DesiredCustomRule, DesiredZone } from '../../manifest/index.js';
import type { Canonicalizer } from '../canonical.js';
import { changedAttributes, noOpChange, type Change } from '../change.js';
import { phaseTarget } from '../phase-target.js';
import type { CustomTarget } from './writes.js';
import { customSafetyFindings } from './safety.js';
import { chooseCustomWrites } from './writes.js';
import { describeCustomRule, desiredCustomAttributes, isUnmanagedCustomRule, liveCustomAttributes } from './attributes.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LiveCustomRule } from './live.js';
import type { LiveZone } from '../live.js';
import type { UnmanagedObject } from '../plan.js';
import type { CustomRulesWrite } from './writes.js';

/** What the custom phase diff found. */
export interface CustomDiff {
  changes: Change[];
  findings: Finding[];
  unmanaged: UnmanagedObject[];
  /** The writes; null when nothing of the phase changes. */
  write: CustomRulesWrite | null;
}

const none: CustomDiff = { changes: [], findings: [], unmanaged: [], write: null };

/** Live rules that no desired rule matched: deleted when zonewall wrote them (or pruned), else kept. */
function leftovers(live: readonly LiveCustomRule[], claimed: ReadonlySet<number>, canon: Canonicalizer, prune: boolean) {
  const changes: Change[] = [];
  const unmanaged: UnmanagedObject[] = [];
  const kept = new Set<number>();
  const findings: Finding[] = [];
  const claimedRefs = new Set([...claimed].map((i) => live[i]!.ref!));
  live.forEach((r, i) => {
    const own = !isUnmanagedCustomRule(r);
    if (claimed.has(i)) return;
    if (!own && !prune) {
      kept.add(i);
      unmanaged.push({ kind: 'custom_rule', id: r.id, summary: describeCustomRule(r) });
      return;
    }
    const duplicate = own && claimedRefs.has(r.ref!);
    if (duplicate) findings.push(finding('duplicate-ref', `custom rule ${r.id} carries ref "${r.ref!}", which another rule holds: it is deleted`, { kind: 'custom_rule', ref: r.ref! }));
    const before = liveCustomAttributes(r, canon);
    changes.push({ kind: 'custom_rule', action: 'delete', reason: !own ? 'prune' : duplicate ? 'duplicate-ref' : 'not-in-manifest',
      ref: own ? r.ref! : '', id: r.id, before, after: null, changed: Object.keys(before), writes: [] });
  });
  return { changes, unmanaged, kept, findings };
}

function matchByRef(wanted: readonly DesiredCustomRule[], live: readonly LiveCustomRule[]): Map<DesiredCustomRule, number> {
  const byRef = new Map<string, number>();
  live.forEach((r, i) => { if (!isUnmanagedCustomRule(r) && !byRef.has(r.ref!)) byRef.set(r.ref!, i); });
  const out = new Map<DesiredCustomRule, number>();
  for (const d of wanted) { const i = byRef.get(d.ref); if (i !== undefined) out.set(d, i); }
  return out;
}

/** The change of one desired rule. */
function wantedChange(item: CustomTarget, live: readonly LiveCustomRule[], canon: Canonicalizer): Change {
  const d = item.desired!;
  const after = desiredCustomAttributes(d);
  if (item.live === undefined) {
    return { kind: 'custom_rule', action: 'create', reason: 'new', ref: d.ref, before: null, after: { ...after, position: item.position }, changed: Object.keys(after), writes: [] };
  }
  const l = live[item.live]!;
  const before = liveCustomAttributes(l, canon, d.expression);
  if (item.moved) { before.position = item.live + 1; after.position = item.position; }
  const changed = changedAttributes(before, after);
  // A rule that moves relative to the others is a change even when its number stays the same.
  if (item.moved && !changed.includes('position')) changed.push('position');
  if (changed.length === 0) return noOpChange('custom_rule', d.ref, l.id);
  const reason = changed.every((n) => n === 'position') ? 'reordered' : 'changed';
  return { kind: 'custom_rule', action: 'update', reason, ref: d.ref, id: l.id, before, after, changed, writes: [] };
}

/**
 * A finding per live rule whose expression does not parse. A rule with the text of the desired rule
 * matched to it parses (the manifest check parsed that text): it is not looked up, so a no-op plan
 * canonicalises none of the phase's expressions.
 */
function parseFindings(live: readonly LiveCustomRule[], canon: Canonicalizer, matched: ReadonlyMap<DesiredCustomRule, number>): Finding[] {
  const checked = new Set<number>();
  for (const [d, i] of matched) if (live[i]!.expression === d.expression) checked.add(i);
  return live.flatMap((r, i) => {
    if (checked.has(i)) return [];
    const c = canon(r.expression);
    return c.ok ? [] : [finding('unparsable-live-expression',
      `custom rule ${r.id} (ref "${r.ref ?? ''}"): the zone's expression does not parse (${c.reason}); it is treated as different`, { kind: 'custom_rule', ref: r.ref ?? '' })];
  });
}

/** Changes of the custom phase, and its writes when anything differs. */
export function diffCustom(desired: DesiredZone, live: LiveZone, canon: Canonicalizer, prune: boolean): CustomDiff {
  const wanted = desired.customRules;
  if (wanted === undefined) return none;
  const entry = live.customEntrypoint ?? null;
  const liveRules = entry?.rules ?? [];
  const matched = matchByRef(wanted, liveRules);
  const left = leftovers(liveRules, new Set(matched.values()), canon, prune);
  const target = phaseTarget(wanted, liveRules, matched, left.kept);
  const changes = [...target.filter((t) => t.desired !== undefined).map((t) => wantedChange(t, liveRules, canon)), ...left.changes];
  const findings = [...parseFindings(liveRules, canon, matched), ...left.findings, ...customSafetyFindings(changes, target, liveRules)];
  const differs = changes.some((c) => c.action !== 'no-op');
  const write = differs ? chooseCustomWrites(entry, target, changes, liveRules) : null;
  return { changes, findings, unmanaged: left.unmanaged, write };
}
