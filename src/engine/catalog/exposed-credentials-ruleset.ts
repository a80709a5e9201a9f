/**
 * The Cloudflare Exposed Credentials Check Ruleset (`c2e184081120413c86c3ab7e14069605`, real id;
 * deprecated, replaced by leaked credentials detection). Shipped so that configurations deploying it
 * keep working in the engine; its rule ids are zonewall-assigned (md5 of a name), its rules log by
 * default (the real ones add a header or log), and none has a trace expression: whether credentials
 * are exposed cannot be told from a request description, so it never matches in a trace.
 */
import { ManagedRulesetIds } from '../../api/index.js';
import type { ManagedRule, ManagedRuleset } from './types.js';

/** The real id of the Exposed Credentials Check ruleset. */
export const ExposedCredentialsRulesetId = ManagedRulesetIds.exposed_credentials;

const updated = '2023-03-14T10:20:00.000000Z';

function rule(id: string, description: string, app: string): ManagedRule {
  return { id, version: '1', description, action: 'log', categories: ['exposed-credentials', app], enabled: true, last_updated: updated };
}

/** The Exposed Credentials Check ruleset. */
export const ExposedCredentialsRuleset: ManagedRuleset = {
  id: ExposedCredentialsRulesetId,
  alias: 'exposed_credentials',
  name: 'Cloudflare Exposed Credentials Check Ruleset',
  description: 'Deprecated: replaced by leaked credentials detection. Checks login requests for credentials known to have been exposed.',
  version: '8',
  last_updated: updated,
  minimum_plan: 'pro',
  anomaly: false,
  rules: [
    rule('1a8f23b36b28d8f2fb0c99f7e4e6eddd', 'WordPress - Check for exposed credentials', 'wordpress'),
    rule('84af56a6008f726106ab61e7b3aeb90a', 'Joomla - Check for exposed credentials', 'joomla'),
    rule('725dc08f663f58fe68ca5bf89222c9d2', 'Drupal - Check for exposed credentials', 'drupal'),
    rule('201c9061ec6cfa2d3b397820864e5384', 'Magento - Check for exposed credentials', 'magento'),
    rule('1422bf44270a9e4c56dd91fdc22e1b71', 'Generic login - Check for exposed credentials', 'generic'),
  ],
};
