/**
 * The fingerprint of a zone's live state: a SHA-256 over everything the plan depends on: every
 * object's id, every field the planner compares or copies into a write, and the server's version
 * markers (`modified_on`, the managed and custom entry points' `version`, `last_updated`). That
 * includes the zone's plan tier (tier findings), the whole migration status (the previous WAF's
 * on/off switch shows as `old_waf_status`), the service's proposed migration configuration (a
 * migration step PUTs it), the entry points' name and description (kept by their PUTs), every
 * field of the previous WAF's packages, groups, rules and URI overrides, and whether the service
 * reports simplified-flow filters. A saved plan records it; applying the plan re-reads the zone and
 * refuses when the fingerprint differs, so a dashboard edit made in between is never overwritten.
 * Objects are sorted by id, so the order a provider lists them in does not matter.
 */
import { createHash } from 'node:crypto';
import type { LiveZone } from './live.js';

const byId = <T extends { id?: string }>(a: T, b: T) => ((a.id ?? '') < (b.id ?? '') ? -1 : (a.id ?? '') > (b.id ?? '') ? 1 : 0);

/** JSON with object keys sorted, so equal values always serialise the same. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * The fingerprint of a live zone: `sha256:` and 64 hex digits. Objects are hashed one by one (the
 * tuples are arrays of primitives, so `JSON.stringify` is canonical for them) to keep large zones
 * cheap.
 * @example fingerprint(await provider.readZone(zoneId))
 */
export function fingerprint(live: LiveZone): string {
  const hash = createHash('sha256');
  // The lines are hashed in chunks: one `update` per object crossed into native code 4,000 times for
  // a zone of 2,000 objects. The bytes hashed are the same, and so is the digest.
  let chunk = '';
  const put = (tag: string, value: unknown) => {
    chunk += `${tag}${JSON.stringify(value)}
`;
    if (chunk.length >= 65536) {
      hash.update(chunk);
      chunk = '';
    }
  };
  put('zone', [live.zone.id, live.zone.plan ?? '', live.filterLocks ?? 'reported']);
  for (const f of [...live.filters].sort(byId)) {
    put('f', [f.id, f.expression, f.paused, f.description ?? '', f.ref ?? '', f.locked === true]);
  }
  for (const r of [...live.firewallRules].sort(byId)) {
    put('r', [r.id, r.action, r.priority, r.paused, r.description ?? '', r.ref ?? '', [...(r.products ?? [])].sort(),
      r.filter.id, 'deleted' in r.filter, r.modified_on ?? '']);
  }
  const e = live.entrypoint;
  put('e', e === null ? null : [e.id, e.version, e.last_updated ?? '', e.name, e.description ?? '', stableStringify(e.rules)]);
  // The custom phase: its ruleset version and every rule (absent when the provider did not read it).
  const c = live.customEntrypoint;
  if (c !== undefined) put('c', c === null ? null : [c.id, c.version, c.last_updated ?? '', c.name, c.description ?? '', stableStringify(c.rules)]);
  const w = live.previousWaf;
  if (w === null) put('w', null);
  else {
    // Whole objects: the diff reads detection modes, allowed and default modes, override URLs.
    for (const p of [...w.packages].sort(byId)) put('wp', stableStringify(p));
    for (const g of [...w.groups].sort(byId)) put('wg', stableStringify(g));
    for (const r of [...w.rules].sort(byId)) put('wr', stableStringify(r));
    for (const o of [...w.overrides].sort(byId)) put('wo', stableStringify(o));
  }
  // The whole status: `old_waf_status` is the previous WAF's on/off switch.
  put('m', live.migration === null ? null : stableStringify(live.migration));
  if (live.migrationConfig !== undefined) put('mc', live.migrationConfig === null ? null : stableStringify(live.migrationConfig));
  for (const p of [...(live.pageRules ?? [])].sort(byId)) put('pr', [p.id, stableStringify(p.targets), stableStringify(p.actions), p.priority, p.status, p.modified_on ?? '']);
  hash.update(chunk);
  return `sha256:${hash.digest('hex')}`;
}
