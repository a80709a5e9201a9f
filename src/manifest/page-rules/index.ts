/**
 * The Page Rules kind in the manifest: `page_rules`, the subset seed 002 names (disable security,
 * the WAF switch). It checks that URL patterns are unique, writes the zone's `pageRules`, and counts
 * them against the tier's quota (active or disabled: free 3, pro 20, business 50, enterprise 125).
 */
import { PageRuleLimits } from '../../api/index.js';
import type { ManifestKind } from '../kind.js';
import { checkPageRules } from './check.js';
import { normalizePageRules } from './normalize.js';

/** Page Rules allowed per plan tier, active or disabled (the service's figures: `src/api`'s `PageRuleLimits.perPlan`). */
export const PageRuleQuota = PageRuleLimits.perPlan;

/** Page Rules. */
export const pageRulesKind: ManifestKind = {
  name: 'page-rules',
  sections: ['page_rules'],
  check: checkPageRules,
  normalize: normalizePageRules,
  checkTier(desired, { tier, add }) {
    const pages = desired.pageRules ?? [];
    if (pages.length <= PageRuleQuota[tier]) return;
    const first = pages[PageRuleQuota[tier]]!;
    add(first.location, ['page_rules', first.key], `the ${tier} plan allows ${PageRuleQuota[tier]} Page Rules and this is rule ${PageRuleQuota[tier] + 1} of ${pages.length} `
      + `(disabled ones count too): remove ${pages.length - PageRuleQuota[tier]}, or use a higher plan`);
  },
};
