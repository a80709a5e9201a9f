/**
 * Page Rules (the subset seed 002 names): a URL pattern with `disable_security` and/or `waf: on|off`.
 * They have no ref, so a manifest entry is matched to the live Page Rule whose `url` target has the
 * same pattern; a live Page Rule no entry matches is unmanaged (listed, deleted only with `--prune`).
 * Actions outside the subset (a cache setting, say) are kept as they are in every update. The API
 * has no batch form: one POST, PUT or DELETE per Page Rule. Without a `page_rules` section the
 * zone's Page Rules are left alone.
 */
import type { DesiredPageRule, DesiredZone } from '../../manifest/index.js';
import { changedAttributes, noOpChange, type Attributes, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LivePageRule, PageRuleAction, PageRuleBody } from './live.js';
import type { LiveZone } from '../live.js';
import type { UnmanagedObject } from '../plan.js';

/** What the Page Rules diff found. */
export interface PageRulesDiff {
  changes: Change[];
  findings: Finding[];
  unmanaged: UnmanagedObject[];
}

/** The URL pattern of a live Page Rule (its `url` target). */
export function pageRuleUrl(r: LivePageRule): string {
  return r.targets.find((t) => t.target === 'url')?.constraint.value ?? '';
}

/** What a live Page Rule does, in the subset's terms. */
export function pageRuleSettings(r: LivePageRule): { disableSecurity: boolean; waf?: 'on' | 'off' } {
  const waf = r.actions.find((a) => a.id === 'waf')?.value;
  return { disableSecurity: r.actions.some((a) => a.id === 'disable_security'), ...(waf === 'on' || waf === 'off' ? { waf } : {}) };
}

function liveAttributes(r: LivePageRule): Attributes {
  const s = pageRuleSettings(r);
  return { url: pageRuleUrl(r), disable_security: s.disableSecurity, waf: s.waf ?? null, status: r.status, priority: r.priority };
}

function desiredAttributes(d: DesiredPageRule): Attributes {
  return { url: d.url, disable_security: d.disableSecurity, waf: d.waf ?? null, status: d.status, priority: d.priority };
}

/** The body for a desired Page Rule; a live one's other actions are kept. */
function body(d: DesiredPageRule, live: LivePageRule | undefined): PageRuleBody {
  const others = (live?.actions ?? []).filter((a) => a.id !== 'disable_security' && a.id !== 'waf');
  const actions: PageRuleAction[] = [...(d.disableSecurity ? [{ id: 'disable_security' as const }] : []), ...(d.waf !== undefined ? [{ id: 'waf' as const, value: d.waf }] : []), ...others];
  return { targets: [{ target: 'url', constraint: { operator: 'matches', value: d.url } }], actions, priority: d.priority, status: d.status };
}

/** One line about a live Page Rule, for the unmanaged list. */
export function describePageRule(r: LivePageRule): string {
  const s = pageRuleSettings(r);
  const what = [s.disableSecurity ? 'disable_security' : '', s.waf !== undefined ? `waf ${s.waf}` : ''].filter((x) => x !== '').join(', ');
  return `${pageRuleUrl(r)}: ${what || r.actions.map((a) => a.id).join(', ')}${r.status === 'disabled' ? ' (disabled)' : ''}`;
}

/** Changes of the zone's Page Rules. */
export function diffPageRules(desired: DesiredZone, live: LiveZone, prune: boolean): PageRulesDiff {
  const out: PageRulesDiff = { changes: [], findings: [], unmanaged: [] };
  const wanted = desired.pageRules;
  if (wanted === undefined) return out;
  if (live.pageRules === undefined) {
    out.findings.push(finding('page-rules-unavailable', 'the service does not serve Page Rules for this zone, so `page_rules` cannot be applied; remove the section', { location: desired.locations.page_rules }));
    return out;
  }
  const byUrl = new Map(live.pageRules.map((r) => [pageRuleUrl(r), r]));
  const matched = new Set<string>();
  for (const d of wanted) {
    const l = byUrl.get(d.url);
    const after = desiredAttributes(d);
    if (l === undefined) {
      out.changes.push({ kind: 'page_rule', action: 'create', reason: 'new', ref: d.key, before: null, after, changed: Object.keys(after), writes: [{ op: 'page_rule.create', body: body(d, undefined) }] });
      continue;
    }
    matched.add(l.id);
    const before = liveAttributes(l);
    const changed = changedAttributes(before, after);
    out.changes.push(changed.length === 0 ? noOpChange('page_rule', d.key, l.id)
      : { kind: 'page_rule', action: 'update', reason: 'changed', ref: d.key, id: l.id, before, after, changed, writes: [{ op: 'page_rule.update', id: l.id, body: body(d, l) }] });
  }
  for (const l of live.pageRules) {
    if (matched.has(l.id)) continue;
    if (!prune) { out.unmanaged.push({ kind: 'page_rule', id: l.id, summary: describePageRule(l) }); continue; }
    const before = liveAttributes(l);
    out.changes.push({ kind: 'page_rule', action: 'delete', reason: 'prune', ref: '', id: l.id, before, after: null, changed: Object.keys(before), writes: [{ op: 'page_rule.delete', id: l.id }] });
  }
  return out;
}
