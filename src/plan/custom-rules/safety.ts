/**
 * The weakening guard of the custom phase: `danger` findings (apply refuses them without `--force`)
 * when a plan lets through traffic a custom rule stopped. A terminating rule turned into `log` or
 * `skip`; a rule that stops traffic disabled; a skip of the `http_request_firewall_managed` phase
 * added (WAF managed rules no longer see what it matches); a skip rule enabled, or given more to
 * skip (the remaining rules, a phase, a product); a skip of the remaining custom rules
 * (`ruleset: current`) placed above a rule that stops traffic and ran before it until now.
 */
import type { AttributeValue, Change } from '../change.js';
import type { CustomTarget } from './writes.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import type { LiveCustomRule } from './live.js';

/** Custom rule actions that stop a request. */
const Terminating = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
const ManagedPhase = 'http_request_firewall_managed';

function name(c: Change): string {
  return `custom_rule "${c.ref !== '' ? c.ref : c.id}"`;
}

function skipsManaged(params: AttributeValue | undefined): boolean {
  const phases = params !== null && typeof params === 'object' && !Array.isArray(params) ? params.phases : undefined;
  return Array.isArray(phases) && phases.includes(ManagedPhase);
}

/** What an enabled skip rule skips: `the remaining custom rules`, phases and products; nothing for other rules. */
function skipped(attrs: Change['after']): string[] {
  if (attrs === null || attrs.action !== 'skip' || attrs.enabled !== true) return [];
  const p = attrs.action_parameters;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return [];
  const list = (v: AttributeValue | undefined) => (Array.isArray(v) ? v.map(String) : []);
  return [...(p.ruleset === 'current' || p.phase === 'current' ? ['the remaining custom rules'] : []), ...list(p.phases).map((x) => `phase ${x}`), ...list(p.products).map((x) => `product ${x}`)];
}

function changeFindings(c: Change): Finding[] {
  const about = { kind: c.kind, ref: c.ref };
  const a = c.after;
  if (a === null || c.action === 'no-op') return [];
  const out: Finding[] = [];
  const b = c.before;
  if (a.action === 'skip' && a.enabled === true && skipsManaged(a.action_parameters) && (b === null || b.enabled !== true || !skipsManaged(b.action_parameters))) {
    out.push(finding('skips-managed-rules', `${name(c)}: a skip of the ${ManagedPhase} phase: WAF managed rules no longer inspect the requests it matches`, about));
  }
  if (b === null) return out;
  const weakened = Terminating.has(String(b.action)) && (a.action === 'log' || a.action === 'skip');
  if (weakened) {
    out.push(finding('weakens-action', `${name(c)}: action ${String(b.action)} -> ${String(a.action)} stops blocking the traffic it matches`, about));
  }
  // A skip enabled, or skipping more than before (the managed phase has its own finding above).
  const had = new Set(skipped(b));
  const added = skipped(a).filter((x) => !had.has(x) && x !== `phase ${ManagedPhase}`);
  if (!weakened && added.length > 0) {
    out.push(finding('widens-exception', `${name(c)}: the skip ${b.enabled === true && b.action === 'skip' ? 'now also skips' : 'is enabled and skips'} ${added.join(', ')} for the requests it matches`, about));
  }
  if (b.enabled === true && a.enabled === false && Terminating.has(String(a.action))) {
    out.push(finding('disables-custom-rule', `${name(c)}: a ${String(a.action)} rule is disabled`, about));
  }
  return out;
}

function skipsRest(item: CustomTarget): boolean {
  const d = item.desired;
  return d !== undefined && d.action === 'skip' && d.enabled && (d.actionParameters?.ruleset === 'current' || d.actionParameters?.phase === 'current');
}

/** Skips of the remaining rules that now stand above stopping rules they used to follow. */
function orderFindings(target: readonly CustomTarget[], live: readonly LiveCustomRule[]): Finding[] {
  const out: Finding[] = [];
  target.forEach((skip, i) => {
    if (!skipsRest(skip)) return;
    const overtaken = target.slice(i + 1).filter((t) => t.live !== undefined && (skip.live === undefined || t.live < skip.live)
      && live[t.live]!.enabled !== false && Terminating.has(t.desired?.action ?? live[t.live]!.action));
    if (overtaken.length === 0) return;
    const names = overtaken.slice(0, 3).map((t) => `"${t.desired?.ref ?? live[t.live!]!.id}"`).join(', ') + (overtaken.length > 3 ? ` and ${overtaken.length - 3} more` : '');
    out.push(finding('skip-above-block', `custom_rule "${skip.desired!.ref}": a skip of the remaining custom rules now runs before ${names}, which stop traffic it matches`, { kind: 'custom_rule', ref: skip.desired!.ref }));
  });
  return out;
}

/** The danger findings of the custom phase's changes and target order. */
export function customSafetyFindings(changes: readonly Change[], target: readonly CustomTarget[], live: readonly LiveCustomRule[]): Finding[] {
  return [...changes.flatMap(changeFindings), ...orderFindings(target, live)];
}
