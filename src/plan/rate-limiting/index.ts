/**
 * The rate limiting kind: `rate_limiting_rules`, the rules of the `http_ratelimit` phase entry
 * point. Its changes carry no writes of their own: the phase write (single-rule calls or one PUT)
 * carries them all, as for custom rules.
 */
import { RatelimitPhase } from '../../api/index.js';
import type { PlanKind } from '../kind.js';
import { stableStringify } from '../stable-json.js';
import type { Write } from '../write.js';
import { diffRateLimit } from './diff.js';
import { exportRateLimitRules } from './export.js';
import { rateLimitQuota } from './quota.js';
import { rateLimitChangeFindings } from './safety.js';

declare module '../phase.js' {
  interface PhaseRegistry {
    rate_limiting_rules: true;
  }
}

declare module '../change.js' {
  interface ResourceKindRegistry {
    rate_limiting_rule: true;
  }
}

/** Rate limiting rules. */
export const rateLimiting: PlanKind = {
  name: 'rate-limiting',
  resources: { rate_limiting_rule: { kept: 'rate_limiting_rules', deleted: 'rate_limiting_rules', ordered: true, counted: true, carried: true } },
  phases: [{ name: 'rate_limiting_rules', requests: 'per-object' }],
  ops: [],
  phaseOf(write: Write) { throw new Error(`rate limiting rules: write ${write.op} is not theirs (the phase write carries their changes)`); },
  canonical: (desired) => (desired.rateLimitingRules ?? []).map((r) => r.expression),
  reads: (desired) => (desired.rateLimitingRules !== undefined ? ['rate_limiting_rules'] : []),
  readRequests: (_live, _perPage, read) => (read('rate_limiting_rules') ? 1 : 0),
  diff({ desired, live, canon, prune }) {
    const d = diffRateLimit(desired, live, canon, prune);
    return { changes: d.changes, findings: d.findings, unmanaged: d.unmanaged, ...(d.write !== null ? { phaseWrite: d.write } : {}) };
  },
  changeFindings: rateLimitChangeFindings,
  quotaFindings: (tier, zone, _changes, phaseWrites) => rateLimitQuota(tier, zone, phaseWrites.find((w) => w.phase === 'rate_limiting_rules')),
  export(live, { canon }) {
    const e = exportRateLimitRules(live.rateLimitEntrypoint, canon);
    if (e === undefined) return { sections: {} };
    const phaseWrites = e.adoption !== null ? [{ phase: 'rate_limiting_rules' as const, ruleset: RatelimitPhase as typeof RatelimitPhase, strategy: 'put' as const, body: e.adoption }] : [];
    return { sections: { rate_limiting_rules: e.rules }, adopted: e.objects, skipped: e.skipped, adoption: { phaseWrites } };
  },
  fingerprint(live, put) {
    const c = live.rateLimitEntrypoint;
    if (c !== undefined) put('rl', c === null ? null : [c.id, c.version, c.last_updated ?? '', c.name, c.description ?? '', stableStringify(c.rules)]);
  },
};
