/**
 * Turns Terraform state into a zonewall manifest: filter and firewall rule resources become
 * `filters` and `firewall_rules` (keyed by ref, else a slug of the description, else the resource
 * name), previous-WAF package/group/rule resources become `previous_waf`, and a ruleset resource of
 * the managed phase becomes `managed_rules`. Resource types are recognised with either prefix:
 * `svc_` (the seed's provider) or `cloudflare_` (the public provider, up to v3.35 for the WAF ones).
 * Whatever cannot be converted is reported, above all URI-based WAF overrides, which block the
 * migration until they are deleted.
 */
import { ZonewallError } from '../errors.js';
import { putInOrder } from '../plan/index.js';
import { PreviousWafPackageIds } from './constants.js';
import type { ManagedRuleEntry } from './managed-rules.js';
import { bool, instanceKeys, list, num, obj, slug, str, uniqueKey } from './terraform-attributes.js';
import { NotConvertedYet, rulesetPhase, type ConvertedCustomRules, type ConvertedRateLimitRules } from './terraform-phases.js';
import { convertRuleset, isManagedPhaseRuleset, type ExceptionSource } from './terraform-ruleset.js';
import { convertLists, type ConvertedLists } from './terraform-lists.js';
import { convertPreviousRateLimit, UpgradeQuotas } from './terraform-rate-limit.js';
import type { TfResource } from './terraform-state.js';

/** The resource kinds zonewall converts (the type without its provider prefix). */
export const TerraformKinds = ['zone', 'filter', 'firewall_rule', 'ruleset', 'waf_package', 'waf_group', 'waf_rule', 'waf_override', 'list', 'list_item', 'rate_limit'] as const;
/** One resource kind. */
export type TerraformKind = (typeof TerraformKinds)[number];

/** Something of the state that was not (fully) converted. */
export interface ConversionNote {
  address: string;
  /** `blocker`: stops the migration until handled; `skipped`: not converted; `warning`: converted with a caveat. */
  severity: 'blocker' | 'skipped' | 'warning';
  message: string;
  /** `missing-filter`: a firewall rule whose filter is not in the state (the firewall upgrade's `cannot-carry`). */
  code?: 'missing-filter';
}

/**
 * A manifest object with the address it came from (for comments and `terraform state rm`) and, for
 * filters and firewall rules, the live id the state names (which adoption gives the key as ref).
 */
export interface Sourced<T> { key: string; address: string; value: T; id?: string }

/** The converted manifest, as data. */
export interface ConvertedManifest {
  zone: string;
  zoneId?: string;
  filters: Sourced<Record<string, unknown>>[];
  firewallRules: Sourced<Record<string, unknown>>[];
  /** The custom phase's entry point (`custom_rules`), with the live rule id of each key. */
  customRules?: ConvertedCustomRules;
  /** The rate limiting phase's entry point (`rate_limiting_rules`), with the live rule id of each key. */
  rateLimitRules?: ConvertedRateLimitRules;
  /** The managed phase's entry point: deployments and exceptions, with the live skip rule id of each exception's ref. */
  managedRules?: { address: string; entries: ManagedRuleEntry[]; exceptions: ExceptionSource[] };
  previousWaf?: {
    packages: Sourced<Record<string, unknown>>[];
    groups: Sourced<string>[];
    rules: Sourced<string>[];
  };
  /** `cloudflare_list` and `cloudflare_list_item`: the account manifest written beside the zone's. */
  lists?: ConvertedLists;
  notes: ConversionNote[];
  /** Addresses of every converted resource, for `terraform state rm`. */
  converted: string[];
}

/** The kind of a resource type, or undefined for types zonewall does not convert. */
export function kindOf(type: string): TerraformKind | undefined {
  const m = /^(?:svc|cloudflare)_(.+)$/.exec(type);
  return m !== null && (TerraformKinds as readonly string[]).includes(m[1]) ? m[1] as TerraformKind : undefined;
}

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

/** Converts filters; returns the map from filter id to manifest key. */
function convertFilters(rs: TfResource[], out: ConvertedManifest): Map<string, string> {
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

/** Converts firewall rules, ordered by priority (rules without one last). */
function convertFirewallRules(rs: TfResource[], filterKeys: Map<string, string>, out: ConvertedManifest): void {
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

/** The manifest key of a previous-WAF package: its alias when it has one. */
function packageKey(id: string): string {
  for (const [alias, pid] of Object.entries(PreviousWafPackageIds)) if (pid === id) return alias;
  return id;
}

/** Converts previous-WAF packages, groups and rules, and reports URI-based overrides. */
function convertPreviousWaf(byKind: Map<TerraformKind, TfResource[]>, zone: string, out: ConvertedManifest): void {
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

/**
 * Converts the zone's entry point rulesets, one row of the phase table (terraform-phases.ts) each:
 * the custom phase into `custom_rules`, the managed phase into `managed_rules`; a phase whose
 * section is not in this build is reported with its reason.
 */
function convertRulesets(rs: TfResource[], out: ConvertedManifest): void {
  for (const r of rs) {
    const phase = str(r.attributes, 'phase');
    const row = rulesetPhase(phase);
    if (row === undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `ruleset of phase ${phase ?? '(none)'}: zonewall has no manifest section for this phase; left to Terraform` });
      continue;
    }
    if (isManagedPhaseRuleset(r.attributes)) {
      if (out.managedRules !== undefined) {
        out.notes.push({ address: r.address, severity: 'skipped', message: `a second ruleset of the managed phase (the first is ${out.managedRules.address}): a zone has one entry point per phase` });
        continue;
      }
      const { entries, exceptions, problems } = convertRuleset(r.attributes);
      for (const message of problems) out.notes.push({ address: r.address, severity: 'warning', message });
      out.managedRules = { address: r.address, entries, exceptions };
      out.converted.push(r.address);
      continue;
    }
    if (row.convert === undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `ruleset of phase ${row.phase}: ${row.notYet ?? 'not converted yet'}` });
      continue;
    }
    const first = row.section === 'rate_limiting_rules' ? out.rateLimitRules : out.customRules;
    if (first !== undefined) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `a second ruleset of the ${row.phase} phase (the first is ${first.address}): a zone has one entry point per phase` });
      continue;
    }
    const converted = row.convert(r);
    for (const message of converted.problems) out.notes.push({ address: r.address, severity: 'warning', message });
    if (converted.custom !== undefined) out.customRules = converted.custom;
    if (converted.rateLimit !== undefined) out.rateLimitRules = converted.rateLimit;
    out.converted.push(r.address);
  }
}

/**
 * Converts `cloudflare_rate_limit` resources (the previous rate limiting API) into
 * `rate_limiting_rules` after the phase's converted rules, as the service upgraded them, within the
 * plan's quota (the zone resource's `plan`, when the state has it). Each rule gets a report row
 * saying what the upgrade changed.
 */
function convertPreviousRateLimits(rs: TfResource[], plan: string | undefined, out: ConvertedManifest): void {
  if (rs.length === 0) return;
  const section = out.rateLimitRules ?? { address: rs[0]!.address, rules: {}, sources: [] };
  const taken = new Set(Object.keys(section.rules));
  const quota = plan === undefined ? undefined : UpgradeQuotas[plan];
  for (const r of [...rs].sort((x, y) => x.address.localeCompare(y.address))) {
    const converted = convertPreviousRateLimit(r);
    if (typeof converted === 'string') { out.notes.push({ address: r.address, severity: 'skipped', message: converted }); continue; }
    if (quota !== undefined && taken.size >= quota) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `previous rate limit beyond the ${plan} plan's quota of ${quota} rate limiting rule(s): the upgrade did not carry it; not converted` });
      continue;
    }
    const description = str(r.attributes, 'description');
    const id = str(r.attributes, 'id');
    const key = uniqueKey([...instanceKeys(r.name, r.indexKey), description && slug(description), slug(r.name)], taken, id !== undefined ? `rate-limit-${id.slice(0, 8)}` : 'rate-limit');
    putInOrder(section.rules, key, converted.rule);
    out.notes.push({ address: r.address, severity: 'warning', message: `previous rate limit converted to rate_limiting_rules.${key} as the service upgraded it${converted.changes.length > 0 ? `: ${converted.changes.join(', ')}` : ''}; the zone may hold the service's own upgraded copy: delete it (or plan with --prune) so the rule is not doubled` });
    out.converted.push(r.address);
  }
  out.rateLimitRules = section;
}

/**
 * Converts the resources of a Terraform state into manifest data for one zone.
 *
 * @example convertTerraform(parseTerraformState(text, file).resources, undefined).filters
 */
export function convertTerraform(resources: TfResource[], zoneOption?: string): ConvertedManifest {
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
  const filterKeys = convertFilters(byKind.get('filter') ?? [], out);
  convertFirewallRules(byKind.get('firewall_rule') ?? [], filterKeys, out);
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
