/**
 * The custom rules kind: WAF custom rules (`custom_rules`), the rules of the
 * `http_request_firewall_custom` phase entry point, the firewall's second generation. Its changes
 * carry no writes of their own: the phase write (single-rule calls or one PUT) carries them all.
 */
import type { PlanKind } from '../kind.js';
import { stableStringify } from '../stable-json.js';
import type { Write } from '../write.js';
import { CustomPhase } from '../../api/index.js';
import { diffCustom } from './diff.js';
import { exportCustomRules } from './export.js';
import { customRulesQuota } from './quota.js';

declare module '../phase.js' {
  interface PhaseRegistry {
    custom_rules: true;
  }
}

declare module '../change.js' {
  interface ResourceKindRegistry {
    custom_rule: true;
  }
}

/** WAF custom rules. */
export const customRules: PlanKind = {
  name: 'custom-rules',
  resources: { custom_rule: { kept: 'custom_rules', deleted: 'custom_rules', ordered: true, counted: true, carried: true } },
  phases: [{ name: 'custom_rules', requests: 'per-object' }],
  ops: [],
  phaseOf(write: Write) { throw new Error(`custom rules: write ${write.op} is not theirs (the phase write carries their changes)`); },
  canonical: (desired) => (desired.customRules ?? []).map((r) => r.expression),
  reads: (desired) => (desired.customRules !== undefined ? ['custom_rules'] : []),
  readRequests: (_live, _perPage, read) => (read('custom_rules') ? 1 : 0),
  diff({ desired, live, canon, prune }) {
    const d = diffCustom(desired, live, canon, prune);
    return { changes: d.changes, findings: d.findings, unmanaged: d.unmanaged, ...(d.write !== null ? { phaseWrite: d.write } : {}) };
  },
  quotaFindings: (tier, zone, _changes, phaseWrites) => customRulesQuota(tier, zone, phaseWrites.find((w) => w.phase === 'custom_rules')),
  export(live, { canon }) {
    const e = exportCustomRules(live.customEntrypoint, canon);
    if (e === undefined) return { sections: {} };
    const phaseWrites = e.adoption !== null ? [{ phase: 'custom_rules' as const, ruleset: CustomPhase as typeof CustomPhase, strategy: 'put' as const, body: e.adoption }] : [];
    return { sections: { custom_rules: e.rules }, adopted: e.objects, skipped: e.skipped, adoption: { phaseWrites } };
  },
  fingerprint(live, put) {
    // The custom phase: its ruleset version and every rule (absent when the provider did not read it).
    const c = live.customEntrypoint;
    if (c !== undefined) put('c', c === null ? null : [c.id, c.version, c.last_updated ?? '', c.name, c.description ?? '', stableStringify(c.rules)]);
  },
};
