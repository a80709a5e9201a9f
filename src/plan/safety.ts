/**
 * Safety checks (after octoDNS's `plan.py` thresholds): a plan that deletes more than a share of the
 * managed objects, or weakens protection (blocking turned into logging or allowing, a managed
 * ruleset disabled, the WAF migration moved on; custom rules: `custom-safety.ts`), gets a `danger` finding per such change, which
 * makes apply refuse without `--force`. Pure: reads the changes' before/after attributes only.
 */
import type { DesiredZone } from '../manifest/index.js';
import type { AttributeValue, Attributes, Change } from './change.js';
import { finding, type Finding } from './finding.js';
import type { LiveZone } from './live.js';
import type { PlanSettings } from './plan.js';

/** Defaults of the safety thresholds. */
export const SafetyDefaults = {
  /** Percentage of managed objects one plan may delete... */
  deleteThreshold: 30,
  /** ...once the zone has at least this many managed objects. */
  minObjects: 10,
} as const;

/** Firewall rule actions that stop traffic. */
const blocking = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
/** Firewall rule actions that let traffic through. */
const letsThrough = new Set(['log', 'allow', 'bypass']);
/** Firewall rule actions that exempt the traffic they match from later rules or products. */
const exempts = new Set(['allow', 'bypass']);
/** Previous WAF modes that stop traffic, and those that do not. */
const wafStrong = new Set(['block', 'challenge', 'on', 'default']);
const wafWeak = new Set(['simulate', 'disable', 'off']);
/** The OWASP anomaly threshold's default (api-facts §4): a higher number is less sensitive. */
const defaultScoreThreshold = 40;

/** Kinds whose objects the delete threshold counts (a switch: a Set look-up per change cost more, at thousands of no-ops). */
function counted(kind: Change['kind']): boolean {
  switch (kind) {
    case 'filter':
    case 'firewall_rule':
    case 'custom_rule':
    case 'managed_ruleset': return true;
    default: return false;
  }
}

function label(c: Change): string {
  return `${c.kind} "${c.ref !== '' ? c.ref : c.id}"`;
}

function deleteThreshold(changes: readonly Change[], settings: PlanSettings): Finding[] {
  // Counted, not listed: a no-op plan at the quota has thousands of managed objects.
  let managed = 0;
  const deletes: Change[] = [];
  changes.forEach((c) => {
    if (!counted(c.kind) || c.id === undefined || (c.ref === '' && c.reason !== 'prune')) return;
    managed++;
    if (c.action === 'delete') deletes.push(c);
  });
  if (managed < settings.minObjects || deletes.length * 100 <= managed * settings.deleteThreshold) return [];
  const pct = Math.round((deletes.length * 100) / managed);
  const names = deletes.slice(0, 10).map(label).join(', ') + (deletes.length > 10 ? `, and ${deletes.length - 10} more` : '');
  return [finding('deletes-too-many',
    `the plan deletes ${deletes.length} of ${managed} managed objects (${pct}%, more than the ${settings.deleteThreshold}% threshold): ${names}; apply with --force if this is intended, or raise --delete-threshold`)];
}

function strings(v: AttributeValue | undefined): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

function firewallRule(c: Change): Finding[] {
  const b = c.before!;
  const a = c.after!;
  const about = { kind: c.kind, ref: c.ref };
  const out: Finding[] = [];
  if (blocking.has(String(b.action)) && letsThrough.has(String(a.action))) {
    out.push(finding('weakens-action', `${label(c)}: action ${String(b.action)} -> ${String(a.action)} stops blocking the traffic it matches`, about));
  }
  if (b.paused === false && a.paused === true && blocking.has(String(a.action))) {
    out.push(finding('pauses-blocking-rule', `${label(c)}: a ${String(a.action)} rule is paused`, about));
  }
  // log -> allow or bypass, bypass -> allow: later rules stop seeing what this rule now lets through.
  if (!blocking.has(String(b.action)) && exempts.has(String(a.action)) && b.action !== a.action && b.action !== 'allow' && a.paused === false) {
    out.push(finding('widens-exception', `${label(c)}: action ${String(b.action)} -> ${String(a.action)} lets through traffic that later rules would see`, about));
  }
  if (a.paused === false && exempts.has(String(a.action)) && b.action === a.action) {
    if (b.paused === true) out.push(finding('widens-exception', `${label(c)}: an ${String(a.action)} rule is unpaused: the traffic it matches is let through again`, about));
    else if (a.action === 'bypass') {
      const before = new Set(strings(b.products));
      const added = strings(a.products).filter((p) => !before.has(p));
      if (added.length > 0) out.push(finding('widens-exception', `${label(c)}: the bypass now also skips ${added.join(', ')} for the traffic it matches`, about));
    }
  }
  return out;
}

type OverrideItem = { [k: string]: AttributeValue };

function overrideItems(o: AttributeValue | undefined, key: 'rules' | 'categories'): Map<string, OverrideItem> {
  const list = o !== null && typeof o === 'object' && !Array.isArray(o) ? o[key] : undefined;
  const out = new Map<string, OverrideItem>();
  if (Array.isArray(list)) for (const item of list as OverrideItem[]) out.set(String(item.id ?? item.category), item);
  return out;
}

function weakerOverride(b: OverrideItem | undefined, a: OverrideItem): string | undefined {
  if (a.enabled === false && b?.enabled !== false) return 'disabled';
  if (a.action === 'log' && b?.action !== 'log') return 'set to log';
  if (typeof a.score_threshold === 'number' && a.score_threshold > (typeof b?.score_threshold === 'number' ? b.score_threshold : defaultScoreThreshold)) {
    return `score threshold raised to ${a.score_threshold}`;
  }
  return undefined;
}

function managedRuleset(c: Change): Finding[] {
  const b = c.before!;
  const about = { kind: c.kind, ref: c.ref };
  if (c.action === 'delete') {
    // Removing a skip rule (only `--prune` does) makes the WAF inspect more, not less.
    if (b.action === 'skip') return [];
    return b.enabled === true ? [finding('disables-managed-ruleset', `${label(c)}: managed ruleset ${String(b.ruleset)} is removed from the entry point`, about)] : [];
  }
  const a = c.after!;
  if (b.enabled === true && a.enabled === false) return [finding('disables-managed-ruleset', `${label(c)}: managed ruleset ${String(a.ruleset)} is disabled`, about)];
  const bo = (b.overrides ?? null) as Attributes | null;
  const ao = (a.overrides ?? null) as Attributes | null;
  const out: Finding[] = [];
  if (ao?.enabled === false && bo?.enabled !== false) out.push(finding('disables-managed-ruleset', `${label(c)}: an override disables every rule of ${String(a.ruleset)}`, about));
  const whole = weakerOverride(bo ?? undefined, { action: ao?.action ?? null });
  if (whole !== undefined) out.push(finding('weakens-managed-rule', `${label(c)}: every rule of ${String(a.ruleset)} ${whole}`, about));
  for (const key of ['categories', 'rules'] as const) {
    const before = overrideItems(bo, key);
    for (const [id, item] of overrideItems(ao, key)) {
      const why = weakerOverride(before.get(id), item);
      if (why !== undefined) out.push(finding('weakens-managed-rule', `${label(c)}: ${key === 'rules' ? 'rule' : 'category'} ${id} ${why}`, about));
    }
  }
  return out;
}

function previousWaf(c: Change): Finding[] {
  const b = c.before!;
  const a = c.after!;
  const about = { kind: c.kind, ref: c.ref };
  const weakened: string[] = [];
  if (c.kind === 'waf_package') {
    if (a.sensitivity === 'off' && b.sensitivity !== 'off') weakened.push('sensitivity off disables the package');
    if (a.action_mode === 'simulate' && b.action_mode !== 'simulate') weakened.push('action mode simulate only logs');
  } else {
    const effective = (m: AttributeValue | undefined) => (m === 'default' && typeof b.default_mode === 'string' ? b.default_mode : String(m));
    if (wafStrong.has(effective(b.mode)) && wafWeak.has(effective(a.mode))) weakened.push(`mode ${String(b.mode)} -> ${String(a.mode)} stops blocking`);
  }
  return weakened.map((w) => finding('weakens-previous-waf', `${label(c)}: ${w}`, about));
}

function migration(c: Change): Finding[] {
  const to = c.after?.state;
  const what = to === 'new_only'
    ? 'finishes the WAF migration: the previous WAF is switched off, irreversibly'
    : 'starts the WAF migration in validation mode: the new WAF runs before the previous one';
  return [finding('flips-waf-migration', `waf_migration: ${String(c.before?.state)} -> ${String(to)} ${what}`, { kind: c.kind, ref: c.ref })];
}

/** What an active Page Rule switches off: `disable_security`, the WAF (`waf: off`). */
function pageRuleOff(attrs: Attributes): string[] {
  if (attrs.status !== 'active') return [];
  return [...(attrs.disable_security === true ? ['security (disable_security)'] : []), ...(attrs.waf === 'off' ? ['the WAF (waf: off)'] : [])];
}

/** A Page Rule that starts switching security or the WAF off for its URL (updated, or made active). */
function pageRule(c: Change): Finding[] {
  const had = new Set(pageRuleOff(c.before!));
  const added = pageRuleOff(c.after!).filter((x) => !had.has(x));
  return added.length === 0 ? [] : [finding('widens-exception', `${label(c)}: now switches off ${added.join(' and ')} for ${String(c.after!.url)}`, { kind: c.kind, ref: c.ref })];
}

function changeFindings(c: Change): Finding[] {
  if (c.action === 'no-op' || c.action === 'create') return [];
  if (c.kind === 'managed_ruleset') return managedRuleset(c);
  // Custom rules' findings need the phase's order: `custom-safety.ts`, run by their diff.
  if (c.kind === 'custom_rule') return [];
  if (c.action === 'delete') return [];
  switch (c.kind) {
    case 'firewall_rule': return firewallRule(c);
    case 'filter': return [];
    case 'waf_package': case 'waf_group': case 'waf_rule': return previousWaf(c);
    case 'waf_migration': return migration(c);
    case 'page_rule': return pageRule(c);
  }
}

/**
 * The rules that stop traffic (a blocking action, not paused) through each filter once the plan
 * is applied: the manifest's rules by filter ref, and the live rules the plan leaves alone
 * (unmanaged, not deleted) by filter id.
 */
function stoppingUsers(changes: readonly Change[], zone: { desired: DesiredZone; live: LiveZone }): { byRef: Map<string, string[]>; byId: Map<string, string[]> } {
  const byRef = new Map<string, string[]>();
  const byId = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, key: string, who: string) => m.set(key, [...(m.get(key) ?? []), who]);
  const managed = new Set(zone.desired.firewallRules.map((r) => r.ref));
  for (const r of zone.desired.firewallRules) if (!r.paused && blocking.has(r.action)) add(byRef, r.filterRef, `"${r.ref}"`);
  const deleted = new Set(changes.filter((c) => c.kind === 'firewall_rule' && c.action === 'delete').map((c) => c.id));
  for (const r of zone.live.firewallRules) {
    if (managed.has(r.ref ?? '') || deleted.has(r.id) || r.paused || !blocking.has(r.action)) continue;
    add(byId, r.filter.id, r.id);
  }
  return { byRef, byId };
}

/** A filter paused while a rule that stops traffic still uses it: that rule stops matching. */
function filterPauses(changes: readonly Change[], zone: { desired: DesiredZone; live: LiveZone }): Finding[] {
  const paused = changes.filter((c) => c.kind === 'filter' && c.action === 'update' && c.before?.paused === false && c.after?.paused === true);
  if (paused.length === 0) return [];
  const users = stoppingUsers(changes, zone);
  return paused.flatMap((c) => {
    const who = [...(users.byRef.get(c.ref) ?? []), ...(c.id !== undefined ? users.byId.get(c.id) ?? [] : [])];
    if (who.length === 0) return [];
    const names = who.slice(0, 3).join(', ') + (who.length > 3 ? ` and ${who.length - 3} more` : '');
    return [finding('pauses-blocking-rule', `${label(c)}: the filter is paused, so the rule(s) using it stop matching: ${names}`, { kind: c.kind, ref: c.ref })];
  });
}

/** The danger findings of a list of changes; `zone` says which rules use a filter once the plan is applied. */
export function safetyFindings(changes: readonly Change[], settings: PlanSettings, zone: { desired: DesiredZone; live: LiveZone }): Finding[] {
  const out: Finding[] = [];
  changes.forEach((c) => { if (c.action !== 'no-op' && c.action !== 'create') out.push(...changeFindings(c)); });
  return [...out, ...filterPauses(changes, zone), ...deleteThreshold(changes, settings)];
}
