/**
 * The manifest's rate limiting rules in the engine's stored shape, for the offline model of
 * `zonewall test` (burst cases).
 */
import type { StoredRuleset } from '../engine/index.js';

/** The manifest's rate limiting rules as the engine stores them (ids are refs offline). */
export function rateLimitRuleset(rules: readonly { ref: string; action: string; expression: string; description: string; enabled: boolean; actionParameters?: unknown; ratelimit: object }[] | undefined): StoredRuleset | undefined {
  if (rules === undefined) return undefined;
  return {
    id: 'manifest', name: 'default', description: '', version: '1', last_updated: '',
    rules: rules.map((r) => ({
      id: r.ref, ref: r.ref, version: '1', last_updated: '', action: r.action, expression: r.expression, description: r.description, enabled: r.enabled,
      ...(r.actionParameters !== undefined ? { action_parameters: r.actionParameters } : {}),
      ratelimit: r.ratelimit,
    })),
  };
}
