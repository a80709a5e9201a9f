/**
 * Previous-WAF package, group and rule resources into `previous_waf`; URI-based WAF overrides,
 * which a manifest cannot express, reported as blockers of the migration.
 */
import { PreviousWafPackageIds } from './constants.js';
import { list, str } from './terraform-attributes.js';
import type { ConvertedManifest, Sourced, TerraformKind } from './terraform-converted.js';
import type { TfResource } from './terraform-state.js';

/** The manifest key of a previous-WAF package: its alias when it has one. */
function packageKey(id: string): string {
  for (const [alias, pid] of Object.entries(PreviousWafPackageIds)) if (pid === id) return alias;
  return id;
}

/** Converts previous-WAF packages, groups and rules, and reports URI-based overrides. */
export function convertPreviousWaf(byKind: Map<TerraformKind, TfResource[]>, zone: string, out: ConvertedManifest): void {
  const waf = { packages: [] as Sourced<Record<string, unknown>>[], groups: [] as Sourced<string>[], rules: [] as Sourced<string>[] };
  for (const r of byKind.get('waf_package') ?? []) {
    const id = str(r.attributes, 'package_id') ?? '';
    if (id === PreviousWafPackageIds.cloudflare) {
      out.notes.push({ address: r.address, severity: 'skipped', message: 'the CloudFlare package is traditional: it has no sensitivity or action mode (its groups and rules are converted)' });
      continue;
    }
    const value: Record<string, unknown> = {};
    for (const field of ['sensitivity', 'action_mode']) { const v = str(r.attributes, field); if (v !== undefined) value[field] = v; }
    waf.packages.push({ key: packageKey(id), address: r.address, value });
    out.converted.push(r.address);
  }
  for (const [kind, idField, target] of [['waf_group', 'group_id', waf.groups], ['waf_rule', 'rule_id', waf.rules]] as const) {
    for (const r of byKind.get(kind) ?? []) {
      const id = str(r.attributes, idField);
      const mode = str(r.attributes, 'mode');
      // The manifest's key patterns: group ids are 32 hex digits, rule ids like 100048 or WP0025B.
      const valid = id !== undefined && (kind === 'waf_group' ? /^[0-9a-f]{32}$/.test(id) : /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(id));
      if (!valid || mode === undefined) {
        out.notes.push({ address: r.address, severity: 'skipped', message: `${kind.replace('_', ' ')} with ${id === undefined ? `no ${idField}` : `${idField} ${id}`}${mode === undefined ? ' and no mode' : ''}: not expressible in previous_waf` });
        continue;
      }
      target.push({ key: id, address: r.address, value: mode });
      out.converted.push(r.address);
    }
  }
  for (const r of byKind.get('waf_override') ?? []) {
    const id = str(r.attributes, 'override_id') ?? str(r.attributes, 'id') ?? '(unknown id)';
    const urls = list(r.attributes.urls).filter((u) => typeof u === 'string').join(', ');
    out.notes.push({
      address: r.address, severity: 'blocker',
      message: `URI-based WAF override ${id} (${urls}) cannot be expressed in a manifest and blocks the migration: recreate what it does as a skip rule or override in managed_rules, then delete it (zonewall migrate delete-overrides --zone ${zone} ${id} --force) and remove it from the state`,
    });
  }
  if (waf.packages.length + waf.groups.length + waf.rules.length > 0) out.previousWaf = waf;
}
