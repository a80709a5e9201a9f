/**
 * `export` of the zone's Page Rules into `page_rules`: each one keyed by a slug of its URL pattern
 * (`*example.com/images/*` → `example-com-images`), with its `disable_security` / `waf` actions,
 * status and priority. A Page Rule is matched by its URL, so nothing is adopted; one that has
 * neither action is not expressible in a manifest and is reported instead (plans leave it alone).
 */
import type { PageRule } from '../../manifest/index.js';
import { pageRuleSettings, pageRuleUrl } from './diff.js';
import { KeyAllocator, freshKey } from '../export-keys.js';
import type { SkippedObject } from '../export-types.js';
import type { LivePageRule } from './live.js';

/** The `page_rules` section of a live zone, or undefined when it has none to write. */
export function exportPageRules(rules: readonly LivePageRule[] | undefined, skipped: SkippedObject[]): Record<string, PageRule> | undefined {
  const out: Record<string, PageRule> = {};
  const keys = new KeyAllocator();
  for (const r of rules ?? []) {
    const s = pageRuleSettings(r);
    if (!s.disableSecurity && s.waf === undefined) {
      skipped.push({ kind: 'page_rule', id: r.id, reason: `actions ${r.actions.map((a) => a.id).join(', ')}: page_rules holds disable_security and waf only` });
      continue;
    }
    const item: PageRule = { url: pageRuleUrl(r) };
    if (s.disableSecurity) item.disable_security = true;
    if (s.waf !== undefined) item.waf = s.waf;
    if (r.status === 'disabled') item.status = 'disabled';
    if (r.priority !== 1) item.priority = r.priority;
    out[freshKey(keys, 'page-rule', r.id, item.url).key] = item;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
