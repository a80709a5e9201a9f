/**
 * The Page Rules kind (`page_rules`): the subset of Page Rules that switches security or the WAF
 * off for a URL pattern, which the WAF migration has to know about. One call per rule (the API
 * has no batch form); matched by URL target, since Page Rules have no ref.
 */
import type { PlanKind } from '../kind.js';
import { byId, stableStringify } from '../stable-json.js';
import type { Write } from '../write.js';
import type { SkippedObject } from '../export-types.js';
import { diffPageRules } from './diff.js';
import { exportPageRules } from './export.js';
import { pageRulesQuota } from './quota.js';
import { pageRuleChangeFindings } from './safety.js';

declare module '../phase.js' {
  interface PhaseRegistry {
    page_rules: true;
  }
}

declare module '../change.js' {
  interface ResourceKindRegistry {
    page_rule: true;
  }
}

/** Page Rules. */
export const pageRules: PlanKind = {
  name: 'page-rules',
  // No-ops sit with the firewall rules' updates, as they always have (plans stay byte-identical).
  resources: { page_rule: { kept: 'firewall_rules.update', deleted: 'filters.delete' } },
  phases: [{ name: 'page_rules', requests: 'per-object' }],
  ops: ['page_rule.create', 'page_rule.update', 'page_rule.delete'],
  phaseOf: (_write: Write) => 'page_rules',
  reads: (desired) => (desired.pageRules !== undefined ? ['page_rules'] : []),
  readRequests: (_live, _perPage, read) => (read('page_rules') ? 1 : 0),
  diff: ({ desired, live, prune }) => diffPageRules(desired, live, prune),
  changeFindings: pageRuleChangeFindings,
  quotaFindings: (tier, zone, changes) => pageRulesQuota(tier, zone, changes),
  export(live) {
    const skipped: SkippedObject[] = [];
    const section = exportPageRules(live.pageRules, skipped);
    return { sections: section !== undefined ? { page_rules: section } : {}, skipped };
  },
  fingerprint(live, put) {
    for (const p of [...(live.pageRules ?? [])].sort(byId)) put('pr', [p.id, stableStringify(p.targets), stableStringify(p.actions), p.priority, p.status, p.modified_on ?? '']);
  },
};
