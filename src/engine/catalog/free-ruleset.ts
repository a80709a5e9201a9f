/**
 * The Cloudflare Free Managed Ruleset (`77454fe2d30c4220b5701f6fdfb893ba`), the only managed ruleset
 * a Free zone may deploy. The two Log4j rules carry real ids (reference §4, seen in public code); the
 * others have zonewall-assigned ids (md5 of a name) for high-profile vulnerabilities of the kind the
 * real ruleset covers.
 */
import { FreeRulesetId } from '../../api/index.js';
import type { ManagedRule, ManagedRuleset } from './types.js';

/** The real id of the Cloudflare Free Managed Ruleset (`src/api`'s). */
export { FreeRulesetId };

const updated = '2024-06-10T11:05:31.000000Z';

const rules: ManagedRule[] = [
  {
    id: 'b453c8ace3a54e0ab7c791510b51dc4d', version: '2', description: 'Log4j Headers', action: 'block', enabled: true, last_updated: updated,
    categories: ['cve-2021-44228', 'java', 'log4j'], expression: 'any(http.request.headers.values[*] contains "${jndi:")',
  },
  {
    id: '7dfd111a6bad4b86bf3522cce6c5792f', version: '2', description: 'Log4j URI', action: 'block', enabled: true, last_updated: updated,
    categories: ['cve-2021-44228', 'java', 'log4j'], expression: 'http.request.uri contains "${jndi:" or http.request.uri contains "$%7Bjndi:"',
  },
  {
    id: '41fef453368aad87157b7029fc94702b', version: '1', description: 'Log4j Body', action: 'block', enabled: true, last_updated: updated,
    categories: ['cve-2021-44228', 'java', 'log4j'], expression: 'http.request.body.raw contains "${jndi:"',
  },
  {
    id: '6753218bff80442309178b1d75eeb71a', version: '1', description: 'Shellshock - CVE:CVE-2014-6271', action: 'block', enabled: true, last_updated: updated,
    categories: ['cve-2014-6271', 'shellshock'], expression: 'any(http.request.headers.values[*] contains "() {")',
  },
  {
    id: '9a7086f585c1739bf3407c9563e7b6fa', version: '1', description: 'Atlassian Confluence - Code Injection - CVE:CVE-2022-26134', action: 'block', enabled: true, last_updated: updated,
    categories: ['atlassian', 'confluence', 'cve-2022-26134'], expression: 'http.request.uri.path contains "${" and http.request.uri.path contains "@java.lang"',
  },
];

/** The Cloudflare Free Managed Ruleset. */
export const FreeManagedRuleset: ManagedRuleset = {
  id: FreeRulesetId,
  alias: 'free',
  name: 'Cloudflare Free Managed Ruleset',
  description: 'Created by the Cloudflare security team, this ruleset provides free protection against high-profile, widespread vulnerabilities.',
  version: '12',
  last_updated: updated,
  minimum_plan: 'free',
  anomaly: false,
  rules,
};
