/**
 * Export of `previous_waf`: only settings that differ from the service's defaults (package
 * sensitivity `high` and action mode `challenge`, group `on`, rule `default`, or `on` for rules
 * without `default`); ids that cannot be written as manifest keys are listed as not exported.
 */
import type { PreviousWaf } from '../../manifest/index.js';
import { PreviousWafPackageAliases } from '../../manifest/index.js';
import type { SkippedObject } from '../export-types.js';
import type { LivePreviousWaf } from './live.js';

const Hex32 = /^[0-9a-f]{32}$/;

/** Non-default settings of the previous WAF; undefined when everything is at its default. */
export function exportPreviousWaf(prev: LivePreviousWaf | null, skipped: SkippedObject[]): PreviousWaf | undefined {
  if (prev === null) return undefined;
  const packages: NonNullable<PreviousWaf['packages']> = {};
  for (const p of prev.packages) {
    if (p.detection_mode !== 'anomaly') continue;
    const settings: { sensitivity?: 'high' | 'medium' | 'low' | 'off'; action_mode?: 'simulate' | 'block' | 'challenge' } = {};
    if (p.sensitivity !== undefined && p.sensitivity !== 'high') settings.sensitivity = p.sensitivity;
    if (p.action_mode !== undefined && p.action_mode !== 'challenge') settings.action_mode = p.action_mode;
    if (Object.keys(settings).length === 0) continue;
    const alias = Object.entries(PreviousWafPackageAliases).find(([, id]) => id === p.id)?.[0];
    if (alias === undefined && !Hex32.test(p.id)) skipped.push({ kind: 'waf_package', id: p.id, reason: 'its id is not a 32-character hexadecimal id' });
    else packages[alias ?? p.id] = settings;
  }
  const groups: Record<string, 'on' | 'off'> = {};
  for (const g of prev.groups) {
    if (g.mode !== 'off') continue;
    if (Hex32.test(g.id)) groups[g.id] = 'off';
    else skipped.push({ kind: 'waf_group', id: g.id, reason: 'its id is not a 32-character hexadecimal id' });
  }
  const rules: Record<string, string> = {};
  for (const r of prev.rules) {
    const fallback = r.allowed_modes.includes('default') ? 'default' : 'on';
    if (r.mode === fallback) continue;
    if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(r.id)) rules[r.id] = r.mode;
    else skipped.push({ kind: 'waf_rule', id: r.id, reason: 'its id cannot be written as a previous_waf.rules key' });
  }
  const out: PreviousWaf = {};
  if (Object.keys(packages).length > 0) out.packages = sortKeys(packages);
  if (Object.keys(groups).length > 0) out.groups = sortKeys(groups);
  if (Object.keys(rules).length > 0) out.rules = sortKeys(rules) as PreviousWaf['rules'];
  return Object.keys(out).length > 0 ? out : undefined;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
