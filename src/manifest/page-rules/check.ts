/**
 * The check of `page_rules` the JSON Schema cannot state: two entries may not have the same URL
 * pattern, since a live Page Rule has no ref and is matched by its URL; and a URL pattern the
 * service refuses (host outside the zone, a port, too many asterisks: `url.ts`).
 */
import { formatPath, type DocPath } from '../errors.js';
import { entriesOf, type Checks } from '../view.js';
import { urlPatternProblems } from './url.js';

/** Reports entries whose `url` repeats an earlier entry's. */
export function checkPageRules(checks: Checks, data: Record<string, unknown>): void {
  const seen = new Map<string, DocPath>();
  const { keys, values } = entriesOf(data.page_rules, checks);
  for (let i = 0; i < keys.length; i++) {
    const rule = values[i];
    const path: DocPath = ['page_rules', keys[i], 'url'];
    if (typeof rule.url !== 'string' || !checks.isClean(path)) continue;
    if (typeof data.zone === 'string') for (const problem of urlPatternProblems(rule.url, data.zone)) checks.report(path, problem, 'value');
    const first = seen.get(rule.url);
    if (first === undefined) seen.set(rule.url, path);
    else checks.report(path, `same url as ${formatPath(first.slice(0, 2))} (line ${checks.lineOf(first)}); a Page Rule is matched by its URL pattern: merge the two`, 'value');
  }
}
