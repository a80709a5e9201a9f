/**
 * The danger finding of a Page Rule change that starts switching security or the WAF off for its URL.
 */
import { changeLabel as label, type Attributes, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';

/** What an active Page Rule switches off: `disable_security`, the WAF (`waf: off`). */
function pageRuleOff(attrs: Attributes): string[] {
  if (attrs.status !== 'active') return [];
  return [...(attrs.disable_security === true ? ['security (disable_security)'] : []), ...(attrs.waf === 'off' ? ['the WAF (waf: off)'] : [])];
}

/** A Page Rule that starts switching security or the WAF off for its URL (updated, or made active). */
export function pageRuleChangeFindings(c: Change): Finding[] {
  if (c.action === 'delete') return [];
  const had = new Set(pageRuleOff(c.before!));
  const added = pageRuleOff(c.after!).filter((x) => !had.has(x));
  return added.length === 0 ? [] : [finding('widens-exception', `${label(c)}: now switches off ${added.join(' and ')} for ${String(c.after!.url)}`, { kind: c.kind, ref: c.ref })];
}

