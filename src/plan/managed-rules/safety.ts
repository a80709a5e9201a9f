/**
 * Danger findings of managed ruleset changes: a deployment removed or disabled, an override that
 * disables every rule, sets rules or categories to log, or raises the OWASP score threshold.
 */
import { changeLabel as label, type AttributeValue, type Attributes, type Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import { exceptionChangeFindings } from './exception-safety.js';

/** The OWASP anomaly threshold's default (api-facts §4): a higher number is less sensitive. */
const defaultScoreThreshold = 40;

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

export function managedChangeFindings(c: Change): Finding[] {
  if (c.kind === 'managed_exception') return exceptionChangeFindings(c);
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

