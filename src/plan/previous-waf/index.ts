/**
 * The previous WAF kind (`previous_waf`): packages, groups and rules of the managed-rules WAF that
 * came before managed rulesets. The API cannot create or delete them, only PATCH them one by one;
 * a setting left out of the manifest goes back to its default.
 */
import { listPages, type PlanKind } from '../kind.js';
import { byId, stableStringify } from '../stable-json.js';
import type { Write } from '../write.js';
import { diffPreviousWaf } from './diff.js';
import { exportPreviousWaf } from './export.js';
import type { SkippedObject } from '../export-types.js';
import { previousWafChangeFindings } from './safety.js';

declare module '../phase.js' {
  interface PhaseRegistry {
    previous_waf: true;
  }
}

declare module '../change.js' {
  interface ResourceKindRegistry {
    waf_package: true;
    waf_group: true;
    waf_rule: true;
  }
}

/** The previous WAF's packages, groups and rules. */
export const previousWaf: PlanKind = {
  name: 'previous-waf',
  // No-ops sit with the firewall rules' updates, as they always have (plans stay byte-identical).
  resources: {
    waf_package: { kept: 'firewall_rules.update', deleted: 'filters.delete' },
    waf_group: { kept: 'firewall_rules.update', deleted: 'filters.delete' },
    waf_rule: { kept: 'firewall_rules.update', deleted: 'filters.delete' },
  },
  phases: [{ name: 'previous_waf', requests: 'per-object' }],
  ops: ['waf_package.patch', 'waf_group.patch', 'waf_rule.patch'],
  phaseOf: (_write: Write) => 'previous_waf',
  // A migrated zone has no previous WAF: the status says so.
  reads: (desired) => (desired.previousWaf !== undefined ? ['migration', 'previous_waf'] : []),
  readRequests(live, perPage, read) {
    const w = live.previousWaf;
    if (w === null) return read('previous_waf') && live.migration?.waf_state !== 'new_only' ? 1 : 0; // its refused package list
    let n = listPages(w.packages.length, perPage) + listPages(w.overrides.length, perPage);
    for (const p of w.packages) {
      n += listPages(w.groups.filter((g) => g.package_id === p.id).length, perPage);
      n += listPages(w.rules.filter((r) => r.package_id === p.id).length, perPage);
    }
    return n;
  },
  diff: ({ desired, live, providerFlags }) => diffPreviousWaf(desired, live, providerFlags),
  changeFindings: previousWafChangeFindings,
  export(live) {
    const skipped: SkippedObject[] = [];
    const section = exportPreviousWaf(live.previousWaf, skipped);
    return { sections: section !== undefined ? { previous_waf: section } : {}, skipped };
  },
  fingerprint(live, put) {
    const w = live.previousWaf;
    if (w === null) { put('w', null); return; }
    // Whole objects: the diff reads detection modes, allowed and default modes, override URLs.
    for (const p of [...w.packages].sort(byId)) put('wp', stableStringify(p));
    for (const g of [...w.groups].sort(byId)) put('wg', stableStringify(g));
    for (const r of [...w.rules].sort(byId)) put('wr', stableStringify(r));
    for (const o of [...w.overrides].sort(byId)) put('wo', stableStringify(o));
  },
};
