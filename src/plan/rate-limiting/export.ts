/**
 * Export of the `http_ratelimit` phase: `rate_limiting_rules` from the entry point, in list order,
 * each rule under its ref when zonewall could have written it, else a slug of its description,
 * else `rule-<id8>`, as custom rules are exported. Defaults are left out, and so is `cf.colo.id`
 * (zonewall adds it). Rules a manifest cannot express (another action, an expression that does not
 * parse, no `ratelimit`) are left out and listed. Adoption is one PUT that sends every rule with its
 * id and its key as ref.
 */
import { putInOrder } from '../export-order.js';
import { ColoCharacteristic, RateLimitActions, RateLimitFieldLimits } from '../../api/index.js';
import type { RateLimitingRule } from '../../manifest/index.js';
import type { Canonicalizer } from '../canonical.js';
import { KeyAllocator, freshKey, isValidKey } from '../export-keys.js';
import type { ExportedObject, SkippedObject } from '../export-types.js';
import { isUnmanagedRateLimitRule } from './attributes.js';
import type { LiveRateLimitEntrypoint, LiveRateLimitRule, RateLimitRuleBody } from './live.js';

/** The `rate_limiting_rules` part of an export. */
export interface RateLimitExport {
  rules: Record<string, RateLimitingRule>;
  objects: ExportedObject[];
  skipped: SkippedObject[];
  adoption: { description?: string; rules: RateLimitRuleBody[] } | null;
}

function problemOf(r: LiveRateLimitRule, canon: Canonicalizer): string | undefined {
  if (!(RateLimitActions as readonly string[]).includes(r.action)) return `action ${r.action} cannot be written in rate_limiting_rules`;
  const c = canon(r.expression);
  if (!c.ok) return `its expression does not parse (${c.reason})`;
  if (r.ratelimit?.characteristics === undefined || r.ratelimit.period === undefined) return 'it has no ratelimit characteristics and period';
  return undefined;
}

function ruleOf(r: LiveRateLimitRule): RateLimitingRule {
  const rl = r.ratelimit!;
  const ratelimit: Record<string, unknown> = { characteristics: rl.characteristics!.filter((c) => c !== ColoCharacteristic), period: rl.period };
  if (rl.requests_per_period !== undefined) ratelimit.requests_per_period = rl.requests_per_period;
  if (rl.score_per_period !== undefined) ratelimit.score_per_period = rl.score_per_period;
  if (rl.score_response_header_name !== undefined) ratelimit.score_response_header_name = rl.score_response_header_name;
  if ((rl.mitigation_timeout ?? 0) !== 0) ratelimit.mitigation_timeout = rl.mitigation_timeout;
  if (rl.counting_expression !== undefined && rl.counting_expression !== '') ratelimit.counting_expression = rl.counting_expression;
  if (rl.requests_to_origin === true) ratelimit.requests_to_origin = true;
  const out = { action: r.action, expression: r.expression } as unknown as RateLimitingRule;
  if (r.description) out.description = r.description;
  if (r.enabled === false) out.enabled = false;
  const resp = r.action === 'block' ? r.action_parameters?.response : undefined;
  if (resp !== undefined) {
    const status = resp.status_code ?? RateLimitFieldLimits.defaultStatus;
    out.action_parameters = { response: { ...(status !== RateLimitFieldLimits.defaultStatus ? { status_code: status } : {}), content_type: resp.content_type, content: resp.content } } as RateLimitingRule['action_parameters'];
  }
  out.ratelimit = ratelimit as unknown as RateLimitingRule['ratelimit'];
  return out;
}

/** Exports the phase; undefined when the zone has no entry point (the section is left out). */
export function exportRateLimitRules(entry: LiveRateLimitEntrypoint | null | undefined, canon: Canonicalizer): RateLimitExport | undefined {
  if (entry === null || entry === undefined) return undefined;
  const out: RateLimitExport = { rules: {}, objects: [], skipped: [], adoption: null };
  const keys = new KeyAllocator();
  const exportable = entry.rules.filter((r) => {
    const problem = problemOf(r, canon);
    if (problem !== undefined) out.skipped.push({ kind: 'rate_limiting_rule', id: r.id, ...(r.ref !== undefined ? { ref: r.ref } : {}), reason: `${problem}; it stays in the zone unmanaged` });
    return problem === undefined;
  });
  const kept = new Set(exportable.filter((r) => !isUnmanagedRateLimitRule(r) && isValidKey(r.ref) && keys.claim(r.ref)));
  const refs = new Map<LiveRateLimitRule, string>();
  for (const r of exportable) {
    const { key, from } = kept.has(r) ? { key: r.ref!, from: 'ref' as const } : freshKey(keys, 'rule', r.id, r.description);
    refs.set(r, key);
    putInOrder(out.rules, key, ruleOf(r));
    out.objects.push({ kind: 'rate_limiting_rule', id: r.id, key, from, refChange: !kept.has(r), inline: false });
  }
  const disown = entry.rules.filter((r) => !refs.has(r) && !isUnmanagedRateLimitRule(r));
  if (out.objects.some((o) => o.refChange) || disown.length > 0) {
    const rules = entry.rules.map((r) => {
      const { version: _v, last_updated: _l, ...rest } = r;
      return { ...rest, ref: refs.get(r) ?? r.id, ratelimit: r.ratelimit ?? {} } as RateLimitRuleBody;
    });
    out.adoption = { ...(entry.description ? { description: entry.description } : {}), rules };
  }
  return out;
}
