/**
 * Danger findings of previous-WAF changes: a package switched off or to simulate, a group or rule
 * mode that stops blocking.
 */
import { changeLabel as label, type AttributeValue, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';

/** Previous WAF modes that stop traffic, and those that do not. */
const wafStrong = new Set(['block', 'challenge', 'on', 'default']);
const wafWeak = new Set(['simulate', 'disable', 'off']);
/** Danger findings of a package, group or rule update (a delete has none: the API cannot delete them). */
export function previousWafChangeFindings(c: Change): Finding[] {
  if (c.action === 'delete') return [];
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

