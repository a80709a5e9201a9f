/**
 * What the rules of every rules phase (a Rulesets API entry point of the zone) share, whatever
 * their kind: which live rules zonewall wrote, and the fields every rule's write body starts with.
 */
import type { PhaseRuleBody } from './write.js';

/** True for a live rule zonewall did not write: its ref is missing, empty, or the API's default (its id). */
export function isUnmanagedPhaseRule(r: { id: string; ref?: string }): boolean {
  return r.ref === undefined || r.ref === '' || r.ref === r.id;
}

/** The fields every rule's write body starts with. */
export type PhaseRuleBodyHead = Pick<PhaseRuleBody, 'id' | 'ref' | 'action' | 'expression' | 'description' | 'enabled'>;

/** The fields of a desired rule every phase's write body starts with, in the API's order (`id` keeps a live rule in a PUT). */
export function phaseRuleBodyHead(d: { ref: string; action: string; expression: string; description: string; enabled: boolean }, id?: string): PhaseRuleBodyHead {
  return {
    ...(id !== undefined ? { id } : {}),
    ref: d.ref,
    action: d.action,
    expression: d.expression,
    ...(d.description !== '' ? { description: d.description } : {}),
    enabled: d.enabled,
  };
}
