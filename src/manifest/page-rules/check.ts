/**
 * The `page_rules` section: its check (two entries may not have the same URL pattern, since a live
 * Page Rule has no ref and is matched by its URL) and its normalisation into `DesiredPageRule`s
 * (defaults filled in: `status: active`, `priority: 1`, as the service does).
 */
import type { DesiredPageRule, SourceLocation } from '../desired.js';
import { formatPath, type DocPath } from '../errors.js';
import type { PageRule } from '../generated/manifest-types.js';
import { entriesOf, type Checks } from '../view.js';

/** Reports entries whose `url` repeats an earlier entry's. */
export function checkPageRules(checks: Checks, data: Record<string, unknown>): void {
  const seen = new Map<string, DocPath>();
  const { keys, values } = entriesOf(data.page_rules, checks);
  for (let i = 0; i < keys.length; i++) {
    const rule = values[i];
    const path: DocPath = ['page_rules', keys[i], 'url'];
    if (typeof rule.url !== 'string' || !checks.isClean(path)) continue;
    const first = seen.get(rule.url);
    if (first === undefined) seen.set(rule.url, path);
    else checks.report(path, `same url as ${formatPath(first.slice(0, 2))} (line ${checks.lineOf(first)}); a Page Rule is matched by its URL pattern: merge the two`, 'value');
  }
}

/** The section's entries as the planner wants them (entries that failed a check are left out). */
export function normalizePageRules(checks: Checks, section: Record<string, PageRule>, at: (path: DocPath) => SourceLocation): DesiredPageRule[] {
  const out: DesiredPageRule[] = [];
  const { keys, values } = entriesOf(section, checks);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const base = ['page_rules', key];
    if (!checks.isClean(base)) continue;
    const r = values[i] as unknown as PageRule;
    out.push({
      key,
      url: r.url,
      disableSecurity: r.disable_security === true,
      ...(r.waf !== undefined ? { waf: r.waf } : {}),
      status: r.status ?? 'active',
      priority: r.priority ?? 1,
      location: at(base),
    });
  }
  return out;
}
