/**
 * Turns Terraform state into a zonewall manifest: filter and firewall rule resources become
 * `filters` and `firewall_rules` (keyed by ref, else a slug of the description, else the resource
 * name), previous-WAF package/group/rule resources become `previous_waf`, and a ruleset resource of
 * the managed phase becomes `managed_rules`. Resource types are recognised with either prefix:
 * `svc_` (the seed's provider) or `cloudflare_` (the public provider, up to v3.35 for the WAF ones).
 * Whatever cannot be converted is reported, above all URI-based WAF overrides, which block the
 * migration until they are deleted. This file picks the zone and sorts the resources by kind; each
 * kind converts in its own file (`terraform-firewall.ts`, `terraform-entry-points.ts`,
 * `terraform-rate-limit.ts`, `terraform-previous-waf.ts`, `terraform-lists.ts`) into the data of
 * `terraform-converted.ts`.
 */
import { ZonewallError } from '../errors.js';
import { obj, str } from './terraform-attributes.js';
import { kindOf, type ConvertedManifest, type TerraformKind } from './terraform-converted.js';
import { convertRulesets } from './terraform-entry-points.js';
import { convertTerraformFilters, convertTerraformFirewallRules } from './terraform-firewall.js';
import { convertLists } from './terraform-lists.js';
import { NotConvertedYet } from './terraform-phases.js';
import { convertPreviousWaf } from './terraform-previous-waf.js';
import { convertPreviousRateLimits } from './terraform-rate-limit.js';
import { checkTerraformShapes } from './terraform-shapes.js';
import type { TfResource } from './terraform-state.js';

export { TerraformKinds, kindOf } from './terraform-converted.js';
export type { ConversionNote, ConvertedManifest, Sourced, TerraformKind } from './terraform-converted.js';

/** Picks the zone: the one `--zone` names (by id or by a zone resource's name), or the only one. */
function pickZone(resources: TfResource[], zoneOption: string | undefined): { zoneId?: string; name: string } {
  const names = new Map<string, string>();
  for (const r of resources) {
    if (kindOf(r.type) !== 'zone') continue;
    const id = str(r.attributes, 'id');
    const name = str(r.attributes, 'zone') ?? str(r.attributes, 'name');
    if (id !== undefined && name !== undefined) names.set(id, name);
  }
  const ids = [...new Set(resources.filter((r) => kindOf(r.type) !== 'zone').map((r) => str(r.attributes, 'zone_id')).filter((z) => z !== undefined))];
  if (zoneOption !== undefined) {
    const match = ids.find((id) => id === zoneOption || names.get(id) === zoneOption);
    if (match !== undefined || ids.length <= 1) return { zoneId: match ?? ids[0], name: zoneOption };
    throw new ZonewallError('ERR_USAGE', `--zone ${zoneOption} matches none of the zones in the state (${ids.join(', ')}); pass one of these zone ids`);
  }
  if (ids.length > 1) {
    throw new ZonewallError('ERR_USAGE', `the state holds resources of ${ids.length} zones (${ids.map((id) => names.get(id) ?? id).join(', ')}); a manifest configures one zone: pass --zone with one of them`);
  }
  if (ids.length === 0) {
    throw new ZonewallError('ERR_USAGE', 'the state holds no filter, firewall rule, ruleset or previous-WAF resource with a zone_id: nothing to convert (pass --zone to name the zone anyway)');
  }
  return { zoneId: ids[0], name: names.get(ids[0]) ?? ids[0] };
}

/**
 * Converts the resources of a Terraform state into manifest data for one zone. A resource whose
 * attributes are not of the shapes the provider writes is refused first (`source`, the state file,
 * names it in the error).
 *
 * @example convertTerraform(parseTerraformState(text, file).resources, undefined, file).filters
 */
export function convertTerraform(resources: TfResource[], zoneOption?: string, source?: string): ConvertedManifest {
  checkTerraformShapes(resources, source, kindOf);
  const { zoneId, name } = pickZone(resources, zoneOption);
  const out: ConvertedManifest = { zone: name, zoneId, filters: [], firewallRules: [], notes: [], converted: [] };
  const byKind = new Map<TerraformKind, TfResource[]>();
  const others = new Map<string, number>();
  for (const r of resources) {
    const kind = kindOf(r.type);
    if (kind === undefined) { others.set(r.type, (others.get(r.type) ?? 0) + 1); continue; }
    if (kind === 'zone') continue;
    if (kind === 'list' || kind === 'list_item') {
      // Account objects: no zone_id.
      byKind.set(kind, [...(byKind.get(kind) ?? []), r]);
      continue;
    }
    if (NotConvertedYet[kind] !== undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: NotConvertedYet[kind]! });
      continue;
    }
    if (kind === 'ruleset' && str(r.attributes, 'account_id') !== undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `account-level ruleset of phase ${str(r.attributes, 'phase') ?? '(none)'}: a manifest configures one zone's entry points; left to Terraform` });
      continue;
    }
    if (zoneId !== undefined && str(r.attributes, 'zone_id') !== zoneId) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `belongs to another zone (${str(r.attributes, 'zone_id') ?? 'none'})` });
      continue;
    }
    byKind.set(kind, [...(byKind.get(kind) ?? []), r]);
  }
  const filterKeys = convertTerraformFilters(byKind.get('filter') ?? [], out);
  convertTerraformFirewallRules(byKind.get('firewall_rule') ?? [], filterKeys, out);
  convertRulesets(byKind.get('ruleset') ?? [], out);
  const zoneResource = resources.find((r) => kindOf(r.type) === 'zone' && str(r.attributes, 'id') === zoneId);
  convertPreviousRateLimits(byKind.get('rate_limit') ?? [], str(zoneResource?.attributes, 'plan') ?? str(obj(zoneResource?.attributes.plan), 'legacy_id'), out);
  convertPreviousWaf(byKind, name, out);
  const listNotes: { address: string; message: string }[] = [];
  const lists = convertLists(byKind.get('list') ?? [], byKind.get('list_item') ?? [], listNotes, out.converted);
  for (const n of listNotes) out.notes.push({ address: n.address, severity: 'skipped', message: n.message });
  if (lists !== undefined) out.lists = lists;
  for (const [type, count] of others) {
    out.notes.push({ address: type, severity: 'skipped', message: `${count} resource(s) of a type zonewall does not manage: left to Terraform` });
  }
  return out;
}
