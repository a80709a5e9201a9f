/**
 * Normalises `page_rules` into `DesiredPageRule`s, in key order, defaults filled in as the service
 * does (`status: active`, `priority: 1`).
 */
import type { DesiredZone } from '../desired.js';
import { locationOf } from '../field-locations.js';
import type { PageRule } from '../generated/manifest-types.js';
import { entriesOf, isRecord, type Checks } from '../view.js';
import type { DesiredPageRule } from './desired.js';

/** Writes the zone's `pageRules` when the manifest has the section (entries that failed a check are left out). */
export function normalizePageRules(zone: DesiredZone, checks: Checks, data: Record<string, unknown>): void {
  if (!isRecord(data.page_rules)) return;
  const out: DesiredPageRule[] = [];
  const { keys, values } = entriesOf(data.page_rules, checks);
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
      location: locationOf(checks.locator, base),
    });
  }
  zone.pageRules = out;
}
