/**
 * What the service refuses of a Page Rule's URL pattern, found offline (the engine's 1004): a host
 * outside the zone, a port, more than `PageRuleLimits.wildcards` asterisks. The engine's own check
 * is `engine/page-rules/url.ts`; this one mirrors the rules a manifest can break (issue 31).
 */
import { PageRuleLimits } from '../../api/index.js';

const ZoneId = /^[0-9a-f]{32}$/;

/** Why `pattern` would be refused for `zone` (a zone name; an id is not checked for hosts). */
export function urlPatternProblems(pattern: string, zone: string): string[] {
  const out: string[] = [];
  const stars = pattern.split('*').length - 1;
  if (stars > PageRuleLimits.wildcards) out.push(`the URL pattern has ${stars} asterisks; the service allows at most ${PageRuleLimits.wildcards} (1004)`);
  const rest = pattern.replace(/^https?:\/\//i, '');
  const host = rest.split('/')[0]!.toLowerCase();
  if (/:\d*$/.test(host)) out.push(`the URL pattern's host ${JSON.stringify(host)} has a port; Page Rules match without one (1004): leave the port out`);
  else if (host !== '' && !ZoneId.test(zone) && !inZone(host, zone.toLowerCase())) {
    out.push(`the URL pattern's host ${JSON.stringify(host)} is not in zone ${zone}; the service refuses it (1004): use ${zone} or one of its subdomains`);
  }
  return out;
}

/** Whether a host pattern (with `*`) can match the zone's apex or a subdomain of it. */
function inZone(host: string, zone: string): boolean {
  if (host === zone || host.endsWith(`.${zone}`)) return true;
  const re = new RegExp(`^${host.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(zone) || re.test(`www.${zone}`);
}
