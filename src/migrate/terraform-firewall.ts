/**
 * Filter and firewall rule resources into `filters` and `firewall_rules`: keyed by ref, else a slug
 * of the description, else the resource name; firewall rules in priority order, each naming its
 * filter's key (a rule whose filter is not in the state is not converted).
 */
import { bool, instanceKeys, list, num, obj, slug, str, uniqueKey } from './terraform-attributes.js';
import type { ConvertedManifest } from './terraform-converted.js';
import type { TfResource } from './terraform-state.js';

/** Converts the state's filter resources (Terraform, not the firewall upgrade); returns the map from filter id to manifest key. */
export function convertTerraformFilters(rs: TfResource[], out: ConvertedManifest): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const r of rs) {
    const a = r.attributes;
    const expression = str(a, 'expression');
    if (expression === undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: 'filter without an expression' });
      continue;
    }
    const description = str(a, 'description');
    const key = uniqueKey([str(a, 'ref'), ...instanceKeys(r.name, r.indexKey), description && slug(description), slug(r.name)], taken, 'filter');
    const value: Record<string, unknown> = { expression };
    if (description !== undefined) value.description = description;
    if (bool(a, 'paused') === true) value.paused = true;
    const id = str(a, 'id');
    out.filters.push({ key, address: r.address, value, ...(id !== undefined ? { id } : {}) });
    out.converted.push(r.address);
    if (id !== undefined) keys.set(id, key);
  }
  return keys;
}

/** Converts the state's firewall rule resources into `firewall_rules` (not into custom rules: that is `firewall/convert.ts`), ordered by priority (rules without one last). */
export function convertTerraformFirewallRules(rs: TfResource[], filterKeys: Map<string, string>, out: ConvertedManifest): void {
  const taken = new Set<string>();
  const rows = rs.map((r) => ({ r, priority: num(r.attributes, 'priority') ?? null }));
  rows.sort((x, y) => (x.priority ?? Infinity) - (y.priority ?? Infinity) || x.r.address.localeCompare(y.r.address));
  for (const { r, priority } of rows) {
    const a = r.attributes;
    // v3/v4: `action` is a string and `filter_id` names the filter; v5: `action { mode }` and `filter { id }`.
    const action = str(a, 'action') ?? str(obj(a.action), 'mode');
    const filterId = str(a, 'filter_id') ?? str(obj(a.filter), 'id');
    const filter = filterId === undefined ? undefined : filterKeys.get(filterId);
    if (action === undefined || filter === undefined) {
      out.notes.push({
        address: r.address, severity: 'skipped', ...(action !== undefined ? { code: 'missing-filter' as const } : {}),
        message: action === undefined ? 'firewall rule without an action' : `firewall rule whose filter ${filterId ?? '(none)'} is not in the state: add the filter resource to the state or write the rule by hand`,
      });
      continue;
    }
    const description = str(a, 'description');
    const key = uniqueKey([str(a, 'ref'), ...instanceKeys(r.name, r.indexKey), description && slug(description), slug(r.name)], taken, 'rule');
    // Priority is always written: the manifest's default (previous + 1) differs from Terraform's (none).
    const value: Record<string, unknown> = { action, filter, priority };
    if (description !== undefined) value.description = description;
    if (bool(a, 'paused') === true) value.paused = true;
    const products = list(a.products).filter((p) => typeof p === 'string');
    if (action === 'bypass' && products.length === 0) {
      out.notes.push({ address: r.address, severity: 'skipped', message: 'bypass rule without products: the service requires at least one; write the rule by hand' });
      continue;
    }
    if (action === 'bypass') value.products = products;
    const id = str(a, 'id');
    out.firewallRules.push({ key, address: r.address, value, ...(id !== undefined ? { id } : {}) });
    out.converted.push(r.address);
  }
}
