/**
 * Danger findings of filter and firewall rule changes: blocking turned into logging or allowing, a
 * blocking rule paused, an exception widened (`allow`/`bypass`), and a filter paused while a rule
 * that stops traffic still uses it.
 */
import type { DesiredZone } from '../../manifest/index.js';
import { changeLabel as label, type AttributeValue, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LiveZone } from '../live.js';

/** Firewall rule actions that stop traffic. */
const blocking = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
/** Firewall rule actions that let traffic through. */
const letsThrough = new Set(['log', 'allow', 'bypass']);
/** Firewall rule actions that exempt the traffic they match from later rules or products. */
const exempts = new Set(['allow', 'bypass']);
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

/** Danger findings of a filter or firewall rule change (updates and replaces; a delete has none). */
export function firewallChangeFindings(c: Change): Finding[] {
  return c.action === 'delete' || c.kind !== 'firewall_rule' ? [] : firewallRule(c);
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
export function filterPauses(changes: readonly Change[], zone: { desired: DesiredZone; live: LiveZone }): Finding[] {
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

