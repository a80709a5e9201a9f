/**
 * URL patterns of Page Rules (`example.com/admin/*`, `https://*.example.com/*`): validation against
 * the zone, and the one Rules language expression that says which requests a pattern matches.
 *
 * Decision (written in the README): a pattern matches the request's full URL (`scheme://host/path?query`)
 * with `*` matching any run of characters, ASCII case-insensitively; a pattern without a scheme matches
 * both `http` and `https`; a pattern without a path means the path `/`. That is exactly the Rules
 * language's `http.request.full_uri wildcard "..."`, so the trace evaluates a Page Rule through the
 * expression the migration writes into its skip rule: before and after a migration, one definition.
 */
import { wildcard } from '../trace/url-pattern.js';
import { PageRuleLimits } from './constants.js';

/** A pattern split into its optional scheme and the rest (with a path). */
interface SplitPattern {
  schemes: readonly ('http' | 'https')[];
  rest: string;
}

function split(pattern: string): SplitPattern {
  const m = /^(https?):\/\//i.exec(pattern);
  const scheme = m?.[1]?.toLowerCase() as 'http' | 'https' | undefined;
  const rest = m ? pattern.slice(m[0].length) : pattern;
  return { schemes: scheme ? [scheme] : ['http', 'https'], rest: rest.includes('/') ? rest : `${rest}/` };
}

/** The Rules language expression matching the requests a valid pattern matches. */
export function pageRuleExpression(pattern: string): string {
  const { schemes, rest } = split(pattern);
  const parts = schemes.map((s) => `http.request.full_uri wildcard "${s}://${rest}"`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(' or ')})`;
}

/** Why a URL pattern is refused for `zone` (empty when it is valid). */
export function patternProblems(pattern: string, zone: string): string[] {
  const out: string[] = [];
  if (pattern.length === 0) return ['the URL pattern is empty: give one such as "example.com/admin/*"'];
  if (pattern.length > PageRuleLimits.urlLength) out.push(`the URL pattern has ${pattern.length} characters; at most ${PageRuleLimits.urlLength}`);
  const bad = /[\s"\\|]/.exec(pattern);
  if (bad) out.push(`the URL pattern contains ${JSON.stringify(bad[0])}, which zonewall's Page Rules do not serve (no spaces, quotes, backslashes or "|")`);
  const stars = pattern.split('*').length - 1;
  if (stars > PageRuleLimits.wildcards) out.push(`the URL pattern has ${stars} asterisks; at most ${PageRuleLimits.wildcards}`);
  if (pattern.includes('**')) out.push('the URL pattern has two asterisks in a row; one matches any run of characters');
  const host = split(pattern).rest.split('/')[0]!.toLowerCase();
  if (host === '') out.push('the URL pattern has no host: start it with the zone name, e.g. "example.com/admin/*"');
  else if (!hostInZone(host, zone.toLowerCase())) out.push(`the URL pattern's host ${JSON.stringify(host)} is not in zone ${zone}: use ${zone} or one of its subdomains`);
  return out;
}

/** Whether a host pattern can match the zone's apex or a subdomain of it. */
function hostInZone(host: string, zone: string): boolean {
  return host === zone || host.endsWith(`.${zone}`) || wildcard(host, zone) || wildcard(host, `www.${zone}`);
}
