/**
 * The previous WAF kind in the manifest: `previous_waf` (packages, groups, rules), while the zone
 * has not migrated (seed 002). It checks the packages, writes the zone's `previousWaf`, and needs a
 * Pro plan or higher (reference/api-facts.md §5).
 */
import type { ManifestKind } from '../kind.js';
import { checkPreviousWaf } from './check.js';
import { normalizePreviousWafSection } from './normalize.js';

export { PreviousWafPackageAliases, resolvePackage } from './catalog.js';

/** The previous WAF's settings. */
export const previousWafKind: ManifestKind = {
  name: 'previous-waf',
  sections: ['previous_waf'],
  check: checkPreviousWaf,
  normalize: normalizePreviousWafSection,
  checkTier(desired, { tier, on, add }) {
    if (tier === 'free' && desired.previousWaf !== undefined) add(desired.previousWaf.location, ['previous_waf'], `the previous WAF needs a Pro plan or higher ${on}`);
  },
};
